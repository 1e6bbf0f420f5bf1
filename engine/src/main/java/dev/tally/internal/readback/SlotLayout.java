package dev.tally.internal.readback;

import org.lwjgl.system.MemoryUtil;

import java.nio.FloatBuffer;

/**
 * Where each captured region lies in a slot's payload and how it becomes floats. Each slot keeps its
 * own, written at capture, so that a sample is always read with the layout of the frame that wrote it
 * (never with a later frame's, after a resize say). Preallocated and reused: no allocation per frame.
 * <p>
 * Buffer regions follow one another without padding (their 32-bit words are read as floats); an image
 * region starts at the next multiple of 16 bytes (a copy's buffer offset must be a multiple of the
 * texel size) and becomes four floats per texel, rows in order.
 */
public final class SlotLayout {
    static final int MAX_REGIONS = 16;
    /** Format code of a buffer region: raw 32-bit words. */
    static final int RAW = -1;

    private final long[] offset = new long[MAX_REGIONS];
    private final long[] bytes = new long[MAX_REGIONS];
    private final int[] format = new int[MAX_REGIONS];
    private final int[] texels = new int[MAX_REGIONS];
    private int count;
    private long end;

    public void clear() {
        count = 0;
        end = 0;
    }

    /** Appends a buffer region; returns its payload offset. */
    public long addBuffer(long regionBytes) {
        return add(end, regionBytes, RAW, 0);
    }

    /** Appends an image region of {@code texelCount} texels; returns its payload offset (a multiple of 16). */
    public long addImage(int vkFormat, int texelCount) {
        if (TexelFormats.bytesPerTexel(vkFormat) == 0) {
            throw new IllegalArgumentException("format " + vkFormat + " cannot be read back as floats; expected " + TexelFormats.supported());
        }
        long start = (end + 15) & ~15L;
        return add(start, (long) texelCount * TexelFormats.bytesPerTexel(vkFormat), vkFormat, texelCount);
    }

    private long add(long start, long regionBytes, int fmt, int texelCount) {
        if (count == MAX_REGIONS) {
            throw new IllegalArgumentException("more than " + MAX_REGIONS + " regions in one capture");
        }
        offset[count] = start;
        bytes[count] = regionBytes;
        format[count] = fmt;
        texels[count] = texelCount;
        count++;
        end = start + regionBytes;
        return start;
    }

    void copyFrom(SlotLayout other) {
        System.arraycopy(other.offset, 0, offset, 0, other.count);
        System.arraycopy(other.bytes, 0, bytes, 0, other.count);
        System.arraycopy(other.format, 0, format, 0, other.count);
        System.arraycopy(other.texels, 0, texels, 0, other.count);
        count = other.count;
        end = other.end;
    }

    public int regionCount() {
        return count;
    }

    /** Payload bytes, padding included. */
    public long payloadBytes() {
        return end;
    }

    public long regionOffset(int region) {
        return offset[region];
    }

    /** Floats that region {@code region} converts to. */
    public int regionFloats(int region) {
        return format[region] == RAW ? (int) (bytes[region] / 4) : 4 * texels[region];
    }

    /** Floats of all regions together, in order, without padding. */
    public int floatCount() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += regionFloats(i);
        }
        return n;
    }

    /**
     * Converts region {@code region} of the payload at {@code payload} into {@code dst[at..]}. With {@code words} (the
     * payload's memory as 32-bit words, the payload's first at index {@code firstWord}), a buffer region is one bulk copy;
     * without, it is read word by word.
     */
    void regionToFloats(int region, long payload, FloatBuffer words, int firstWord, float[] dst, int at) {
        long src = payload + offset[region];
        if (format[region] == RAW) {
            int n = (int) (bytes[region] / 4);
            if (words != null) {   // regions start at whole words (buffer regions are whole floats, image regions at 16 bytes)
                words.get(firstWord + (int) (offset[region] >> 2), dst, at, n);   // absolute bulk read: no view made per call
                return;
            }
            for (int i = 0; i < n; i++) {
                dst[at + i] = MemoryUtil.memGetFloat(src + 4L * i);
            }
        } else {
            TexelFormats.toFloats(format[region], src, texels[region], dst, at);
        }
    }

    /** Every region converted, concatenated without padding, into {@code dst} from index 0. */
    void toFloats(long payload, float[] dst) {
        toFloats(payload, null, 0, dst);
    }

    /** As {@link #toFloats(long, float[])}, buffer regions copied in bulk from {@code words} (see {@link #regionToFloats}). */
    void toFloats(long payload, FloatBuffer words, int firstWord, float[] dst) {
        int at = 0;
        for (int i = 0; i < count; i++) {
            regionToFloats(i, payload, words, firstWord, dst, at);
            at += regionFloats(i);
        }
    }
}

package dev.tally.internal.readback;

import dev.tally.readback.Delivery;

import dev.tally.readback.TimeSource;

import dev.tally.readback.Sample;

import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A sample as a {@link SampleListener} sees it: provenance plus a view of the slot's payload, valid only
 * during the callback (the ring reuses this object and the slot). Reading it allocates nothing; copy what
 * must be kept ({@link #copyTo(float[])}, {@link #copyTo(ByteBuffer)}, or {@link #toSample()}).
 */
public final class DeliveredSlot implements Delivery {
    private long frame;
    private long timelineValue;
    private long deliveredAtFrame;
    private long completedNanos;
    private TimeSource timeSource;
    private double ageMillis;
    private boolean stale;
    private boolean oneShot;
    private long payload;
    /** The slot's memory as 32-bit words, the payload's first at {@link #firstWord} (null: none given; read word by word). */
    private FloatBuffer words;
    private int firstWord;
    /** The delivering slot's own layout (not a copy: nothing captures into a slot while its sample is handed out). */
    private SlotLayout layout = new SlotLayout();
    private boolean valid;

    DeliveredSlot() {
    }

    void set(long frame, long timelineValue, long deliveredAtFrame, long completedNanos, TimeSource source, double ageMillis,
             boolean stale, boolean oneShot, long payload, SlotLayout layout, FloatBuffer slotWords, int firstWord) {
        this.frame = frame;
        this.timelineValue = timelineValue;
        this.deliveredAtFrame = deliveredAtFrame;
        this.completedNanos = completedNanos;
        this.timeSource = source;
        this.ageMillis = ageMillis;
        this.stale = stale;
        this.oneShot = oneShot;
        this.payload = payload;
        this.words = slotWords;
        this.firstWord = firstWord;
        this.layout = layout;
        this.valid = true;
    }

    void invalidate() {
        valid = false;
    }

    /** The frame whose GPU work wrote the sample. */
    public long frame() {
        return frame;
    }

    public long timelineValue() {
        return timelineValue;
    }

    /** The frame whose beginning delivered it. */
    public long deliveredAtFrame() {
        return deliveredAtFrame;
    }

    /** Frames between writing and delivery. */
    public long lag() {
        return deliveredAtFrame - frame;
    }

    /** When the GPU finished the slot's copy, on the {@link System#nanoTime()} clock; see {@link #timeSource()}. */
    public long completedNanos() {
        return completedNanos;
    }

    public TimeSource timeSource() {
        return timeSource;
    }

    /** Milliseconds from {@link #completedNanos()} to the hand-out. */
    public double ageMillis() {
        return ageMillis;
    }

    /** Older than the ring's {@code maxAgeFrames}: delivered, flagged and counted. */
    public boolean stale() {
        return stale;
    }

    /** From a one-shot request rather than the every-frame capture. */
    public boolean oneShot() {
        return oneShot;
    }

    /** Payload bytes (image regions start at multiples of 16). */
    public int byteCount() {
        return (int) layout.payloadBytes();
    }

    /** Floats of the payload converted (buffer words as floats, image texels as RGBA), without padding. */
    public int floatCount() {
        return layout.floatCount();
    }

    /** The {@code index}-th 32-bit word of the payload, as a float. */
    public float floatAt(int index) {
        return MemoryUtil.memGetFloat(address(4L * index, 4));
    }

    public int intAt(int index) {
        return MemoryUtil.memGetInt(address(4L * index, 4));
    }

    /** The whole payload converted to floats into {@code dst} from index 0 ({@link #floatCount()} of them). */
    public void copyTo(float[] dst) {
        requireValid();
        if (dst.length < layout.floatCount()) {
            throw new IllegalArgumentException("destination holds " + dst.length + " floats; the sample has " + layout.floatCount());
        }
        layout.toFloats(payload, words, firstWord, dst);
    }

    /** The raw payload into {@code dst} from its position, which advances by {@link #byteCount()}. */
    public void copyTo(ByteBuffer dst) {
        requireValid();
        int n = byteCount();
        if (dst.remaining() < n) {
            throw new IllegalArgumentException("destination has " + dst.remaining() + " bytes left; the sample has " + n);
        }
        if (dst.isDirect()) {
            MemoryUtil.memCopy(payload, MemoryUtil.memAddress(dst), n);
            dst.position(dst.position() + n);
        } else {
            for (int i = 0; i < n; i++) {
                dst.put(MemoryUtil.memGetByte(payload + i));
            }
        }
    }

    /** An immutable copy that outlives the callback (allocates). */
    public Sample toSample() {
        requireValid();
        byte[] bytes = new byte[byteCount()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = MemoryUtil.memGetByte(payload + i);
        }
        float[] floats = new float[layout.floatCount()];
        layout.toFloats(payload, words, firstWord, floats);
        return new Sample(frame, timelineValue, deliveredAtFrame, completedNanos, timeSource, ageMillis, stale, bytes, floats);
    }

    private long address(long offset, int size) {
        requireValid();
        if (offset < 0 || offset + size > layout.payloadBytes()) {
            throw new IndexOutOfBoundsException("byte " + offset + " of a " + layout.payloadBytes() + "-byte sample");
        }
        return payload + offset;
    }

    private void requireValid() {
        if (!valid) {
            throw new IllegalStateException("a DeliveredSlot is valid only during its callback; keep a copy (toSample, copyTo) instead");
        }
    }
}

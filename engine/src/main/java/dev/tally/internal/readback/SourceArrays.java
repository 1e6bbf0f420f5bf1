package dev.tally.internal.readback;

import dev.tally.graph.BufferHandle;
import dev.tally.graph.Handle;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackRing.ImageRegion;
import dev.tally.readback.ReadbackRing.Region;
import dev.tally.readback.ReadbackRing.Source;

import java.util.Arrays;
import java.util.List;

/**
 * A capture's sources as parallel arrays, up to {@link SlotLayout#MAX_REGIONS}: what a caller refills each frame
 * ({@link ReadbackRing#sourceList()}), what a slot's capture keeps until it is recorded, and what a list of
 * {@link Source} records is read into. Refilling it stores handles and numbers: no object per source, per frame.
 */
final class SourceArrays implements ReadbackRing.SourceList {
    private final String ringName;
    private final Handle[] handles = new Handle[SlotLayout.MAX_REGIONS];
    private final boolean[] image = new boolean[SlotLayout.MAX_REGIONS];
    /** A buffer region's first byte and byte count; an image region's x and y. */
    private final long[] first = new long[SlotLayout.MAX_REGIONS], second = new long[SlotLayout.MAX_REGIONS];
    /** An image region's width and height. */
    private final int[] width = new int[SlotLayout.MAX_REGIONS], height = new int[SlotLayout.MAX_REGIONS];
    private int count;

    /** Empty; {@code ringName} names the ring in the one-line errors of a list that overflows or gets a null handle. */
    SourceArrays(String ringName) {
        this.ringName = ringName;
    }

    @Override
    public SourceArrays clear() {
        Arrays.fill(handles, 0, count, null);   // no handle of an old frame is kept alive past its reuse
        count = 0;
        return this;
    }

    @Override
    public SourceArrays buffer(BufferHandle source, long offset, long bytes) {
        int i = next("buffer", source);
        image[i] = false;
        first[i] = offset;
        second[i] = bytes;
        return this;
    }

    @Override
    public SourceArrays buffer(BufferHandle source, long bytes) {
        return buffer(source, 0, bytes);
    }

    @Override
    public SourceArrays image(ImageHandle source, int x, int y, int w, int h) {
        int i = next("image", source);
        image[i] = true;
        first[i] = x;
        second[i] = y;
        width[i] = w;
        height[i] = h;
        return this;
    }

    @Override
    public int size() {
        return count;
    }

    private int next(String what, Handle source) {
        if (source == null) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': source list's " + what + " " + count + " is null");
        }
        if (count == SlotLayout.MAX_REGIONS) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': more than " + SlotLayout.MAX_REGIONS
                    + " regions in one capture's source list");
        }
        handles[count] = source;
        return count++;
    }

    /** Replaces the contents with {@code from}'s. */
    void set(SourceArrays from) {
        clear();
        count = from.count;
        System.arraycopy(from.handles, 0, handles, 0, count);
        System.arraycopy(from.image, 0, image, 0, count);
        System.arraycopy(from.first, 0, first, 0, count);
        System.arraycopy(from.second, 0, second, 0, count);
        System.arraycopy(from.width, 0, width, 0, count);
        System.arraycopy(from.height, 0, height, 0, count);
    }

    /** Replaces the contents with {@code sources} (a null element or too many is refused in one line). */
    SourceArrays set(List<? extends Source> sources) {
        clear();
        if (sources == null) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': capture of a null list of sources");
        }
        if (sources.size() > SlotLayout.MAX_REGIONS) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': " + sources.size() + " regions in one capture; at most "
                    + SlotLayout.MAX_REGIONS);
        }
        for (int i = 0; i < sources.size(); i++) {
            Source s = sources.get(i);
            if (s instanceof ImageRegion r) {
                requireSource(r.image(), "an image region's image", i);
                image(r.image(), r.x(), r.y(), r.width(), r.height());
            } else if (s instanceof Region r) {
                requireSource(r.source(), "a region's source buffer", i);
                buffer(r.source(), r.offset(), r.bytes());
            } else {
                throw new IllegalArgumentException("readback ring '" + ringName + "': source " + i + " of the capture is null");
            }
        }
        return this;
    }

    private void requireSource(Handle h, String what, int i) {
        if (h == null) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': " + what + " is null (source " + i + " of the capture)");
        }
    }

    boolean isImage(int i) {
        return image[i];
    }

    Handle handle(int i) {
        return handles[i];
    }

    BufferHandle buffer(int i) {
        return (BufferHandle) handles[i];
    }

    ImageHandle image(int i) {
        return (ImageHandle) handles[i];
    }

    /** A buffer region's first byte. */
    long offset(int i) {
        return first[i];
    }

    /** A buffer region's byte count. */
    long bytes(int i) {
        return second[i];
    }

    int x(int i) {
        return (int) first[i];
    }

    int y(int i) {
        return (int) second[i];
    }

    int width(int i) {
        return width[i];
    }

    int height(int i) {
        return height[i];
    }
}

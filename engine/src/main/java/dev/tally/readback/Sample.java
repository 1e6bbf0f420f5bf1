package dev.tally.readback;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Function;

/**
 * One delivered readback: a copy of the bytes the GPU wrote, tagged with the frame that wrote them,
 * the timeline value of that frame's submission, the frame it was delivered in and the source's
 * extent at capture time (so a resize can never mislabel it).
 */
public record Sample(long frame, long timelineValue, long deliveredAtFrame, int width, int height, byte[] bytes) {
    /** Frames between writing and delivery: the ring's slot count in steady state. */
    public long lag() {
        return deliveredAtFrame - frame;
    }

    public float floatAt(int index) {
        return view().getFloat(4 * index);
    }

    public int intAt(int index) {
        return view().getInt(4 * index);
    }

    /** Reads a struct (or anything) from the little-endian bytes. */
    public <T> T read(Function<ByteBuffer, T> reader) {
        return reader.apply(view());
    }

    private ByteBuffer view() {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }
}

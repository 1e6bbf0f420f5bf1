package dev.tally.readback;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Function;

/**
 * One delivered readback: a copy of the bytes the GPU wrote, tagged with the frame that wrote them,
 * the timeline value of that frame's submission and the frame it was delivered in. Anything else a
 * reader needs to interpret the bytes (an extent, say) belongs in the captured data itself, so that it
 * can never be paired with a later frame's.
 */
public record Sample(long frame, long timelineValue, long deliveredAtFrame, byte[] bytes) {
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

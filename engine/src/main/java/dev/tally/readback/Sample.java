package dev.tally.readback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Function;

/**
 * One delivered readback, kept: a copy of the bytes the GPU wrote and their provenance. Anything else a
 * reader needs to interpret the bytes (an extent, say) belongs in the captured data itself, so that it
 * can never be paired with a later frame's.
 *
 * @param frame            the frame whose GPU work wrote it
 * @param timelineValue    that frame's timeline value
 * @param deliveredAtFrame the frame whose beginning handed it out
 * @param completedNanos   when the GPU finished the slot's copy, on the {@link System#nanoTime()} clock
 * @param timeSource       how {@code completedNanos} was obtained
 * @param ageMillis        milliseconds from completion to hand-out
 * @param stale            older than the ring's {@code maxAgeFrames}
 * @param bytes            the payload as laid out in the slot (image regions start at multiples of 16)
 * @param floats           the payload converted: buffer words as floats, image texels as RGBA floats, no padding
 */
public record Sample(long frame, long timelineValue, long deliveredAtFrame, long completedNanos, TimeSource timeSource,
                     double ageMillis, boolean stale, byte[] bytes, float[] floats) {
    /** Little-endian 32-bit words straight from the byte array: a word read allocates nothing. */
    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@return frames between writing and delivery} */
    public long lag() {
        return deliveredAtFrame - frame;
    }

    /**
     * {@return that word, as a float}
     *
     * @param index a 32-bit word of the payload, from 0
     * @throws IndexOutOfBoundsException outside the payload
     */
    public float floatAt(int index) {
        return Float.intBitsToFloat(intAt(index));
    }

    /**
     * {@return that word, as an int}
     *
     * @param index a 32-bit word of the payload, from 0
     * @throws IndexOutOfBoundsException outside the payload
     */
    public int intAt(int index) {
        if (index < 0 || index > bytes.length / 4 - 1) {
            throw new IndexOutOfBoundsException("word " + index + " of a " + bytes.length + "-byte sample");
        }
        return (int) LE_INT.get(bytes, 4 * index);
    }

    /**
     * {@return that float}
     *
     * @param index a float of the converted payload, from 0 (see {@link #floats})
     * @throws ArrayIndexOutOfBoundsException outside the converted payload
     */
    public float value(int index) {
        return floats[index];
    }

    /**
     * Reads a struct (or anything) from the little-endian bytes.
     *
     * @param <T>    what the reader makes
     * @param reader given a read-only little-endian view of the payload from byte 0
     * @return what the reader returned
     */
    public <T> T read(Function<ByteBuffer, T> reader) {
        return reader.apply(view());
    }

    private ByteBuffer view() {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }
}

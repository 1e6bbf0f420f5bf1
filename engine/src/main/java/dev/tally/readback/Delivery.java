package dev.tally.readback;

import dev.tally.readback.TimeSource;
import dev.tally.readback.Sample;
import java.nio.ByteBuffer;

/**
 * A sample as a {@link SampleListener} sees it: provenance plus a view of the slot's payload, valid only
 * during the callback (the ring reuses this object and the slot). Reading it allocates nothing; copy what
 * must be kept ({@link #copyTo(float[])}, {@link #copyTo(ByteBuffer)}, or {@link #toSample()}).
 */
public interface Delivery {
    /** {@return the frame whose GPU work wrote the sample} */
    long frame();

    /** {@return that frame's timeline value} */
    long timelineValue();

    /** {@return the frame whose beginning delivered it} */
    long deliveredAtFrame();

    /** {@return frames between writing and delivery} */
    long lag();

    /** {@return when the GPU finished the slot's copy, on the {@link System#nanoTime()} clock; see {@link #timeSource()}} */
    long completedNanos();

    /** {@return how {@link #completedNanos()} was obtained} */
    TimeSource timeSource();

    /** {@return milliseconds from {@link #completedNanos()} to the hand-out} */
    double ageMillis();

    /** {@return whether it is older than the ring's {@code maxAgeFrames}: delivered, flagged and counted} */
    boolean stale();

    /** {@return whether it comes from a one-shot request rather than the every-frame capture} */
    boolean oneShot();

    /** {@return payload bytes (image regions start at multiples of 16)} */
    int byteCount();

    /** {@return floats of the payload converted (buffer words as floats, image texels as RGBA), without padding} */
    int floatCount();

    /**
     * {@return that word, as a float}
     *
     * @param index a 32-bit word of the payload, from 0
     */
    float floatAt(int index);

    /**
     * {@return that word, as an int (for counters and the frame numbers a capture carries)}
     *
     * @param index a 32-bit word of the payload, from 0
     */
    int intAt(int index);

    /**
     * The whole payload converted to floats into {@code dst} from index 0 ({@link #floatCount()} of them).
     *
     * @param dst at least {@link #floatCount()} long
     */
    void copyTo(float[] dst);

    /**
     * The raw payload into {@code dst} from its position, which advances by {@link #byteCount()}.
     *
     * @param dst with at least {@link #byteCount()} bytes remaining
     */
    void copyTo(ByteBuffer dst);

    /** {@return an immutable copy that outlives the callback (allocates)} */
    Sample toSample();
}

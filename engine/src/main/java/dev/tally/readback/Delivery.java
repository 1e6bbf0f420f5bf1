package dev.tally.readback;

import dev.tally.readback.TimeSource;
import dev.tally.readback.Sample;
import org.lwjgl.system.MemoryUtil;
import java.nio.ByteBuffer;

/**
 * A sample as a {@link SampleListener} sees it: provenance plus a view of the slot's payload, valid only
 * during the callback (the ring reuses this object and the slot). Reading it allocates nothing; copy what
 * must be kept ({@link #copyTo(float[])}, {@link #copyTo(ByteBuffer)}, or {@link #toSample()}).
 */
public interface Delivery {
    /** The frame whose GPU work wrote the sample. */
    long frame();

    long timelineValue();

    /** The frame whose beginning delivered it. */
    long deliveredAtFrame();

    /** Frames between writing and delivery. */
    long lag();

    /** When the GPU finished the slot's copy, on the {@link System#nanoTime()} clock; see {@link #timeSource()}. */
    long completedNanos();

    TimeSource timeSource();

    /** Milliseconds from {@link #completedNanos()} to the hand-out. */
    double ageMillis();

    /** Older than the ring's {@code maxAgeFrames}: delivered, flagged and counted. */
    boolean stale();

    /** From a one-shot request rather than the every-frame capture. */
    boolean oneShot();

    /** Payload bytes (image regions start at multiples of 16). */
    int byteCount();

    /** Floats of the payload converted (buffer words as floats, image texels as RGBA), without padding. */
    int floatCount();

    /** The {@code index}-th 32-bit word of the payload, as a float. */
    float floatAt(int index);

    int intAt(int index);

    /** The whole payload converted to floats into {@code dst} from index 0 ({@link #floatCount()} of them). */
    void copyTo(float[] dst);

    /** The raw payload into {@code dst} from its position, which advances by {@link #byteCount()}. */
    void copyTo(ByteBuffer dst);

    /** An immutable copy that outlives the callback (allocates). */
    Sample toSample();
}

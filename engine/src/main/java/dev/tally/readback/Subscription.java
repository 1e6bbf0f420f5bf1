package dev.tally.readback;


/**
 * A listener of a ring's every-frame samples, optionally with a caller-owned destination that the ring
 * fills before calling it (floats: the payload converted; bytes: the raw payload from index 0). Close to
 * stop hearing.
 */
public interface Subscription extends AutoCloseable {
    void close();
}

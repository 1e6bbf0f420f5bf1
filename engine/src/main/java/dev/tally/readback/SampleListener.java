package dev.tally.readback;

import dev.tally.readback.Delivery;

/**
 * Hears each sample a ring delivers, on the thread that calls {@code Tally.beginFrame()}, inside that call
 * (no other thread is involved). The {@link Delivery} is valid only during the call.
 */
@FunctionalInterface
public interface SampleListener {
    /**
     * A sample arrived (at the beginning of a frame).
     *
     * @param sample the delivered sample; copy what must outlive the call
     */
    void delivered(Delivery sample);
}

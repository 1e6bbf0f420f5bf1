package dev.tally.demo.app;

import dev.tally.readback.Delivery;

/**
 * The newest readback sample the demo's frame reads (HUD text, exposure range), kept in one array the ring
 * converts each sample into, with its frame and lag: the per-frame path reads it without the copy
 * {@code ReadbackRing.latest()} makes of each new sample.
 */
final class LatestReadback {
    private final float[] floats;
    private long frame = -1;
    private long lag;

    /** @param floats the array the ring's subscription converts each sample into */
    LatestReadback(float[] floats) {
        this.floats = floats;
    }

    /** Called from the subscription, after the ring converted {@code d} into the array. */
    void delivered(Delivery d) {
        frame = d.frame();
        lag = d.lag();
    }

    boolean present() {
        return frame >= 0;
    }

    /** The frame whose GPU work wrote the newest sample, -1 before the first. */
    long frame() {
        return frame;
    }

    long lag() {
        return lag;
    }

    /** The {@code index}-th float of the converted payload (buffer words as floats, in capture order). */
    float value(int index) {
        return floats[index];
    }
}

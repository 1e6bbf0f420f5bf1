package dev.tally.internal.graph;

/**
 * Where one frame stands in time: its number, its slot among the frames in flight and the timeline value
 * its submission signals. Made only by {@link GraphRuntime#begin} (for {@code dev.tally.Tally#beginFrame}, the one owner of frame numbers); numbers and values only grow (an
 * abandoned frame keeps both: its value is signalled by an empty submission), so every per-frame ring
 * takes its slot from here instead of keeping a count of its own.
 *
 * @param slot {@code number} modulo the frames in flight
 */
public record FrameTicket(long number, int slot, long timelineValue) {
    /** The ticket of frame {@code number} with {@code framesInFlight} frames in flight. */
    static FrameTicket of(long number, long timelineValue, int framesInFlight) {
        return new FrameTicket(number, (int) (number % framesInFlight), timelineValue);
    }

    /** This frame's slot in a ring of {@code size} entries deeper than the frames in flight (readback slots, say). */
    public int slotIn(int size) {
        return (int) (number % size);
    }
}

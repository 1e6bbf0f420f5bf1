package dev.tally;

/**
 * The frames-in-flight contract, checked at each frame's beginning by a poll of the timeline (never a
 * wait): with {@code frames.inFlight = N}, when frame n is begun, frame n - N - 1 has finished on the GPU,
 * so at most N frames are unfinished. Tally sizes what the CPU rewrites per frame (the HUD's text buffers,
 * the readback slots, the timing queries) to that promise; a host that runs further ahead would overwrite
 * what the GPU still reads. Keeps the timeline value of the last N + 1 frames, by frame number.
 */
final class InFlightCheck {
    private final long[] values;
    /** The value {@link #begun} replaced, restored when that frame is abandoned. */
    private long replaced;

    InFlightCheck(int framesInFlight) {
        this.values = new long[framesInFlight + 1];
    }

    /** Refuses to begin frame {@code number} while frame {@code number - N - 1} has not finished ({@code completed}: the timeline's value). */
    void check(long number, long completed) {
        long due = values[(int) (number % values.length)];
        if (due > completed) {
            int inFlight = values.length - 1;
            throw new IllegalStateException("frame " + number + " begun while frame " + (number - values.length) + " (timeline value " + due
                    + ") has not finished on the GPU: the host runs more than frames.inFlight = " + inFlight + " frames ahead;"
                    + " wait for that frame (its fence) before beginFrame(), or raise frames.inFlight to the fences you cycle"
                    + " (and readback.slots above it)");
        }
    }

    void begun(long number, long timelineValue) {
        int slot = (int) (number % values.length);
        replaced = values[slot];
        values[slot] = timelineValue;
    }

    /** Frame {@code number}, begun last, will never run: its slot holds the older frame's value again. */
    void abandoned(long number) {
        values[(int) (number % values.length)] = replaced;
    }
}

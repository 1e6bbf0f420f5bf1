package dev.tally.internal.engine;

/**
 * The frames-in-flight contract, checked at each frame's beginning by a poll of the timeline (never a
 * wait): with {@code frames.inFlight = N}, when a frame is begun, the frame that carried work N + 1 frames
 * before it has finished on the GPU, so at most N frames are unfinished. Tally sizes what the CPU rewrites per
 * frame (the HUD's text buffers, the readback slots, the timing queries) to that promise; a host that runs
 * further ahead would overwrite what the GPU still reads. Without abandoned frames that is frame n - N - 1.
 * <p>
 * An abandoned frame carries no work and keeps its number (numbers only grow), so it takes no place here:
 * this keeps the number and timeline value of the last N + 1 frames that were begun and not abandoned.
 */
final class InFlightCheck {
    private final long[] values;
    private final long[] numbers;
    /** Frames begun and not abandoned: the next one's place is {@code begun % (N + 1)}. */
    private long begun;
    /** The value and number {@link #begun} replaced, restored when that frame is abandoned. */
    private long replacedValue;
    private long replacedNumber;

    InFlightCheck(int framesInFlight) {
        this.values = new long[framesInFlight + 1];
        this.numbers = new long[framesInFlight + 1];
    }

    /** The timeline value that must have finished before the next frame begins (0: none yet). */
    long due() {
        return values[(int) (begun % values.length)];
    }

    /** Refuses to begin frame {@code number} unless the frame N + 1 places back has finished ({@code dueFinished}: the timeline reached {@link #due()}). */
    void check(long number, boolean dueFinished) {
        int place = (int) (begun % values.length);
        long due = values[place];
        if (!dueFinished) {
            int inFlight = values.length - 1;
            throw new IllegalStateException("frame " + number + " begun while frame " + numbers[place] + " (timeline value " + due
                    + ") has not finished on the GPU: the host runs more than frames.inFlight = " + inFlight + " frames ahead;"
                    + " wait for that frame (its fence) before beginFrame(), or raise frames.inFlight to the fences you cycle"
                    + " (and readback.slots above it)");
        }
    }

    void begun(long number, long timelineValue) {
        int place = (int) (begun % values.length);
        replacedValue = values[place];
        replacedNumber = numbers[place];
        values[place] = timelineValue;
        numbers[place] = number;
        begun++;
    }

    /** The frame begun last will never run: its place holds the older frame again, for the next frame to take. */
    void abandoned() {
        begun--;
        int place = (int) (begun % values.length);
        values[place] = replacedValue;
        numbers[place] = replacedNumber;
    }
}

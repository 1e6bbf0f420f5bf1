package dev.tally.demo.app;

/**
 * When the HUD's text is rebuilt: on the first frame, then once {@code period} seconds of the frame clock have passed
 * since the last rebuild, and on a run's last frame (its screenshot shows that frame's own figures). A figure read by
 * eye changes a few times a second; between rebuilds the overlay finds each line as it laid it out the frame before.
 */
final class RefreshClock {
    /** Two readings of the clock a period apart may differ from it by the rounding of their sums. */
    private static final double SLACK = 1e-9;
    private final double period;
    private double lastRebuild;
    private boolean started;

    /** @param periodSeconds seconds of the frame clock between rebuilds; 0 rebuilds every frame */
    RefreshClock(double periodSeconds) {
        if (!(periodSeconds >= 0)) {
            throw new IllegalArgumentException("HUD text refresh period " + periodSeconds + " s: must be 0 (every frame) or more");
        }
        this.period = periodSeconds;
    }

    /**
     * Whether the frame at time {@code now} (seconds of the frame clock: the fixed steps' sum in a reproducible run, wall time
     * otherwise) rebuilds the text; if so, the period starts again from it.
     */
    boolean due(double now, boolean lastFrame) {
        if (started && !lastFrame && now - lastRebuild < period - SLACK) {
            return false;
        }
        started = true;
        lastRebuild = now;
        return true;
    }
}

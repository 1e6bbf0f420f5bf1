package dev.tally.demo.app;

import java.util.Arrays;
import java.util.function.DoubleSupplier;

/**
 * Where a demo frame's time goes, phase by phase: wall time from one mark of {@link DemoApp.Run#step} to the next, less
 * the frame-pacing waits that fell inside it. The declarations (scene to capture) and the frame's beginning run Tally's
 * Java and no driver call; recording and submitting run both. Made for one run of at most {@code frames} frames and
 * filled as it goes (arrays made here, nothing per frame).
 */
public final class FramePhases {
    /** The marks of a frame, in the order the step reaches them. */
    public enum Phase {
        /** {@code Tally.beginFrame}: completed frames retired, readback samples handed out, timings read. */
        BEGIN,
        /** The host's command buffer begun (its pool reset; the pacing wait taken out). */
        COMMANDS,
        SCENE, EXPOSURE, TONEMAP, PROBE, PLOT, HUD, CAPTURE,
        /** {@code Frame.record} into the command buffer, and its end. */
        RECORD,
        SUBMIT;

        /** The phase's name as figures print it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final Phase[] PHASES = Phase.values();
    private final long[][] nanos;
    private final DoubleSupplier waitedMicros;
    private int frame = -1;
    private long last;
    private double lastWaited;

    /**
     * @param frames       the frames to keep (later ones are not kept)
     * @param waitedMicros the frame-pacing waits so far, in microseconds (taken out of the phase they fell in)
     */
    public FramePhases(int frames, DoubleSupplier waitedMicros) {
        if (frames < 2) {
            throw new IllegalArgumentException("frame phases need at least 2 frames (the first is set-up), got " + frames);
        }
        this.nanos = new long[PHASES.length][frames];
        this.waitedMicros = waitedMicros;
    }

    void frameStarted() {
        frame++;
        lastWaited = waitedMicros.getAsDouble();
        last = System.nanoTime();
    }

    void ended(Phase p) {
        long now = System.nanoTime();
        double waited = waitedMicros.getAsDouble();
        if (frame >= 0 && frame < nanos[0].length) {
            nanos[p.ordinal()][frame] = now - last - Math.round((waited - lastWaited) * 1e3);
        }
        lastWaited = waited;
        last = System.nanoTime();   // the wait counter's read is not the next phase's
    }

    /** Frames begun so far. */
    public int frames() {
        return frame + 1;
    }

    /** The median of {@code p} in microseconds over the kept frames after the first (NaN before two frames). */
    public double medianMicros(Phase p) {
        int n = Math.min(frames(), nanos[0].length);
        if (n < 2) {
            return Double.NaN;
        }
        long[] kept = Arrays.copyOfRange(nanos[p.ordinal()], 1, n);
        Arrays.sort(kept);
        int m = kept.length;
        return (m % 2 == 1 ? kept[m / 2] : (kept[m / 2 - 1] + kept[m / 2]) / 2.0) / 1e3;
    }

    /** Every phase's median, as "begin 1.10, commands 0.95, ... us". */
    public String summary() {
        StringBuilder b = new StringBuilder();
        for (Phase p : PHASES) {
            b.append(b.length() == 0 ? "" : ", ").append(p.label()).append(' ').append(String.format(java.util.Locale.ROOT, "%.2f", medianMicros(p)));
        }
        return b.append(" us").toString();
    }
}

package dev.tally.demo.bench;

import dev.tally.Tally;
import dev.tally.demo.bench.replay.CommandReplay;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * The demo's frame against the replay of its own command stream, in runs taken in turn: a demo run, then a replay run
 * of a stream captured just before it, {@code count} times. A machine whose speed drifts between runs (the H200
 * machine's CPU moved one side 2x between runs taken minutes apart) then moves both sides of each pair alike, and the
 * ratio is the median of the pairs' ratios, with their range beside it. One pair before them warms the capture and replay
 * up, its figures dropped.
 *
 * @param tallyMicros     the median over pairs of the demo run's per-frame median, wall time less pacing waits
 * @param replayMicros    the same for the replay runs
 * @param ratio           the median of the pairs' ratios (each pair's demo median over its replay median)
 * @param bytesPerFrame   the most any demo run allocated per frame on the frame thread (-1: not countable)
 * @param pacingMicrosPerFrame the median over pairs of the demo runs' pacing waits per frame (0 where they spin instead,
 *                        {@link DemoFrames#spinWaits()})
 */
public record FrameCpuPairs(int count, double tallyMicros, double replayMicros, double tallyCpuMicros, double replayCpuMicros,
                            double ratio, double ratioMin, double ratioMax, double cpuRatio, double bytesPerFrame,
                            double replayBytesPerFrame, double pacingMicrosPerFrame, double[] pairTallyMicros, double[] pairReplayMicros,
                            double[] pairRatios) {
    /** Pairs in the full bench; a quick run takes fewer. */
    public static final int PAIRS = 7, QUICK_PAIRS = 3;

    /** {@code count} pairs of {@code frames}-frame runs of {@code demo} (warmed up by the caller) and its replay. */
    public static FrameCpuPairs measure(Tally tally, DemoFrames demo, int frames, int count, PrintStream progress) {
        if (count < 1) {
            throw new IllegalArgumentException("frame-cpu needs at least one pair of runs, got " + count);
        }
        double[] demoUs = new double[count], replay = new double[count], tallyCpu = new double[count], replayCpu = new double[count];
        double[] ratios = new double[count], cpuRatios = new double[count], pacing = new double[count];
        double bytes = 0, replayBytes = 0;
        // One pair first whose figures are dropped: the capture and replay code met for the first time between two demo
        // runs sends the JIT back to work, and the demo run after it met that (0.5 B per frame in one pair of seven on the
        // H200 without this pair).
        demo.measure();
        FrameReplay.measure(tally, demo, frames);
        for (int k = 0; k < count; k++) {
            DemoFrames.Figures f = demo.measure();
            CommandReplay.Figures r = FrameReplay.measure(tally, demo, frames);
            demoUs[k] = f.cpuMicrosMedian();
            pacing[k] = f.pacingMicrosPerFrame();
            replay[k] = r.wallMinusWaitsMicrosMedian();
            tallyCpu[k] = f.threadCpuMicrosMedian();
            replayCpu[k] = r.threadCpuMicrosMedian();
            ratios[k] = replay[k] > 0 ? demoUs[k] / replay[k] : -1;
            cpuRatios[k] = replayCpu[k] > 0 && tallyCpu[k] >= 0 ? tallyCpu[k] / replayCpu[k] : -1;
            bytes = f.bytesPerFrame() < 0 || bytes < 0 ? -1 : Math.max(bytes, f.bytesPerFrame());
            replayBytes = r.bytesPerFrame() < 0 || replayBytes < 0 ? -1 : Math.max(replayBytes, r.bytesPerFrame());
            progress.printf(Locale.ROOT, "  frame-cpu pair %d: %.2f us against the replay's %.2f us (%.2fx), %.1f bytes/frame%n", k + 1, demoUs[k],
                    replay[k], ratios[k], f.bytesPerFrame());
        }
        double[] sortedRatios = sorted(ratios);
        return new FrameCpuPairs(count, median(demoUs), median(replay), median(tallyCpu), median(replayCpu), median(ratios),
                sortedRatios[0], sortedRatios[count - 1], median(cpuRatios), bytes, replayBytes, median(pacing), demoUs, replay, ratios);
    }

    /** The figures as JSON members (no braces), the per-pair arrays included. */
    public String json() {
        return String.format(Locale.ROOT, "\"cpuMicrosMedian\": %.3f, \"threadCpuMicrosMedian\": %.3f, \"bytesPerFrame\": %.1f, "
                        + "\"replayMicrosPerFrame\": %.3f, \"replayCpuMicrosPerFrame\": %.3f, \"replayBytesPerFrame\": %.1f, \"tallyOverReplay\": %.3f, "
                        + "\"tallyOverReplayMin\": %.3f, \"tallyOverReplayMax\": %.3f, \"tallyOverReplayThreadCpu\": %.3f, \"pairs\": %d, "
                        + "\"pairCpuMicros\": %s, \"pairReplayMicros\": %s, \"pairTallyOverReplay\": %s, \"pacingMicrosPerFrame\": %.3f",
                tallyMicros, tallyCpuMicros, bytesPerFrame, replayMicros, replayCpuMicros, replayBytesPerFrame, ratio, ratioMin, ratioMax, cpuRatio,
                count, array(pairTallyMicros), array(pairReplayMicros), array(pairRatios), pacingMicrosPerFrame);
    }

    private static String array(double[] values) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", values[i]));
        }
        return b.append(']').toString();
    }

    private static double[] sorted(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static double median(double[] values) {
        double[] s = sorted(values);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}

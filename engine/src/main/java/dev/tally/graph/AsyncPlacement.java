package dev.tally.graph;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Placement by measurement ({@link AsyncMode#AUTO}): for a graph topology, frames run first with the
 * candidates on the main queue, then on the async queue, until each variant has {@link #TRIAL_FRAMES}
 * GPU spans (first pass start to last pass end, from the graph's own timestamps); the variant with the
 * lower median span is kept. A new topology starts the trial again. Spans arrive frames late (they are
 * read without waiting), so the trial simply runs each variant until its samples are in.
 */
public final class AsyncPlacement {
    static final int TRIAL_FRAMES = 16;
    private static final String OFF = "main";
    private static final String ON = "async";

    private String topology = "";
    private final Map<String, double[]> spans = new HashMap<>();
    private final Map<String, Integer> counts = new HashMap<>();
    private String chosen;
    private boolean trying;

    /** The frame about to be planned has this topology; a change restarts the trial. */
    synchronized void topology(String key) {
        if (!key.equals(topology)) {
            topology = key;
            spans.clear();
            counts.clear();
            chosen = null;
        }
    }

    /** Whether the candidate pass {@code name} goes to the async lane this frame. */
    synchronized boolean placeAsync(String name, AsyncMode mode) {
        return switch (mode) {
            case OFF -> false;
            case ON -> true;
            case AUTO -> {
                if (chosen != null) {
                    yield chosen.equals(ON);
                }
                trying = true;
                yield count(OFF) >= TRIAL_FRAMES;   // main queue first, then async until its samples are in
            }
        };
    }

    /** The label of a frame's placement, for the span measured later. */
    String variant(List<String> candidates, int[] laneOf, GraphPlan plan, FrameGraph g) {
        for (int lane : laneOf) {
            if (lane == QueueLanes.ASYNC) {
                return ON;
            }
        }
        return OFF;
    }

    synchronized void frameSpan(String variant, double micros) {
        double[] s = spans.computeIfAbsent(variant, k -> new double[TRIAL_FRAMES]);
        int c = counts.getOrDefault(variant, 0);
        s[c % TRIAL_FRAMES] = micros;
        counts.put(variant, c + 1);
        if (chosen == null && trying && count(OFF) >= TRIAL_FRAMES && count(ON) >= TRIAL_FRAMES) {
            chosen = median(ON) < median(OFF) ? ON : OFF;
        }
    }

    private int count(String v) {
        return counts.getOrDefault(v, 0);
    }

    private double median(String v) {
        double[] s = spans.get(v);
        if (s == null) {
            return Double.NaN;
        }
        double[] c = Arrays.copyOf(s, Math.min(TRIAL_FRAMES, count(v)));
        Arrays.sort(c);
        return c.length == 0 ? Double.NaN : c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    /** What auto chose ("async" or "main"), or null while trying (or in another mode). */
    public synchronized String choice() {
        return chosen;
    }

    /** Median GPU span in microseconds of recent frames with the candidates on the main queue ("main") or async ("async"). */
    public synchronized double medianSpanMicros(String variant) {
        return median(variant);
    }

    /** Microseconds per frame the choice saves against running everything on the main queue (0 when main was kept). */
    public synchronized double savedMicros() {
        if (chosen == null || chosen.equals(OFF)) {
            return 0;
        }
        return median(OFF) - median(ON);
    }
}

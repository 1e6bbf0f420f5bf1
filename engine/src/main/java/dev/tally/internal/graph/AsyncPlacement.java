package dev.tally.internal.graph;

import dev.tally.graph.AsyncMode;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Placement by measurement ({@link AsyncMode#AUTO}): for each graph topology, frames alternate between
 * the candidates on the main queue and on the async queue until each variant has {@link #TRIAL_FRAMES}
 * GPU spans (first pass start to last pass end, from the graph's own timestamps); the variant with the
 * lower median span is kept for that topology. Alternating frame by frame exposes both variants to the
 * same drift in GPU load. Spans arrive frames late (they are read without waiting) and carry the
 * topology they were planned under, so a late span never counts for a newer topology. A topology seen
 * again keeps its verdict; a new one starts its own trial.
 */
public final class AsyncPlacement {
    static final int TRIAL_FRAMES = 16;
    /** Topologies whose verdicts are kept; the least recently planned is forgotten first. */
    static final int REMEMBERED_TOPOLOGIES = 16;

    /** What one frame was planned as: under which topology, with the candidates on the async queue or not. */
    public record Variant(String topology, boolean async) {
    }

    /** One topology's trial: spans per variant, frames planned so far, and the verdict once both are in. */
    private static final class Trial {
        final double[][] spans = new double[2][TRIAL_FRAMES];
        final int[] counts = new int[2];
        long planned;
        Boolean asyncChosen;
    }

    private final Map<String, Trial> trials = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Trial> eldest) {
            return size() > REMEMBERED_TOPOLOGIES;
        }
    };
    private String current = "";

    /**
     * Whether this frame, of topology {@code topology}, puts its candidates on the async queue. Call
     * once per planned frame that has candidates and two lanes.
     */
    synchronized boolean placeAsync(String topology, AsyncMode mode) {
        current = topology;
        return switch (mode) {
            case OFF -> false;
            case ON -> true;
            case AUTO -> {
                Trial t = trials.computeIfAbsent(topology, k -> new Trial());
                if (t.asyncChosen != null) {
                    yield t.asyncChosen;
                }
                yield t.planned++ % 2 == 1;   // main first, then alternate until both variants' spans are in
            }
        };
    }

    /** A frame planned as {@code variant} took {@code micros} on the GPU, first pass start to last pass end. */
    synchronized void frameSpan(Variant variant, double micros) {
        Trial t = trials.get(variant.topology());
        if (t == null || t.asyncChosen != null) {
            return;   // no trial for it (another mode, or forgotten), or already decided: the verdict stands
        }
        int v = variant.async() ? 1 : 0;
        if (t.counts[v] < TRIAL_FRAMES) {
            t.spans[v][t.counts[v]++] = micros;
        }
        if (t.counts[0] == TRIAL_FRAMES && t.counts[1] == TRIAL_FRAMES) {
            t.asyncChosen = median(t, 1) < median(t, 0);
        }
    }

    private static double median(Trial t, int v) {
        if (t.counts[v] == 0) {
            return Double.NaN;
        }
        double[] c = Arrays.copyOf(t.spans[v], t.counts[v]);
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /** For the topology planned last: "async" or "main" once auto has decided; null while trying (or in another mode). */
    public synchronized String choice() {
        Trial t = trials.get(current);
        return t == null || t.asyncChosen == null ? null : t.asyncChosen ? "async" : "main";
    }

    /** For the topology planned last: median trial GPU span (microseconds) with the candidates on the async queue or not; NaN before any. */
    public synchronized double medianSpanMicros(boolean async) {
        Trial t = trials.get(current);
        return t == null ? Double.NaN : median(t, async ? 1 : 0);
    }

    /**
     * For the topology planned last: microseconds per frame the choice saves against the candidates on
     * the main queue (median of the trial's spans); 0 when main was kept; NaN before a choice.
     */
    public synchronized double savedMicros() {
        Trial t = trials.get(current);
        if (t == null || t.asyncChosen == null) {
            return Double.NaN;
        }
        return t.asyncChosen ? median(t, 0) - median(t, 1) : 0;
    }
}

package dev.tally.internal.graph;

import dev.tally.graph.PassStats;
import dev.tally.internal.sort.HeapSort;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Recent GPU times per pass (from timestamps read back without waiting), with their median. */
public final class PassTimes implements PassStats {
    private static final int WINDOW = 128;

    private static final class Series {
        final double[] values = new double[WINDOW];
        /** Scratch for the median, reused; the median is kept until a sample arrives (the HUD asks every frame). */
        final double[] sorted = new double[WINDOW];
        int count;
        long total;
        long medianAtTotal = -1;
        double median;

        void add(double v) {
            values[(int) (total % WINDOW)] = v;
            total++;
            count = (int) Math.min(WINDOW, total);
        }

        double median() {
            if (count == 0) {
                return Double.NaN;
            }
            if (medianAtTotal != total) {
                double[] copy = sorted;
                System.arraycopy(values, 0, copy, 0, count);
                HeapSort.sort(copy, count);   // Arrays.sort may allocate
                median = count % 2 == 1 ? copy[count / 2] : (copy[count / 2 - 1] + copy[count / 2]) / 2;
                medianAtTotal = total;
            }
            return median;
        }
    }

    private final Map<String, Series> series = new LinkedHashMap<>();
    private final Map<String, Boolean> culled = new LinkedHashMap<>();

    synchronized void add(String pass, double micros) {
        (pass == GraphRuntime.FRAME_SPAN ? frameSpan() : series.computeIfAbsent(pass, k -> new Series())).add(micros);
    }

    /** The frame span's series, kept: a timed frame adds to it without a map lookup. */
    private Series frameSpan;

    private Series frameSpan() {
        if (frameSpan == null) {
            frameSpan = series.computeIfAbsent(GraphRuntime.FRAME_SPAN, k -> new Series());
        }
        return frameSpan;
    }

    /**
     * One timed frame: {@code micros[i]} for pass {@code passes[i]}, i below {@code n}, then the frame's span, under one
     * lock. A frame names the passes the last one named, in the same places and by the same strings (nodes keep their
     * names), so each place keeps the series it found last time and the map is asked only when a name there changed.
     */
    synchronized void addFrame(String[] passes, double[] micros, int n, double spanMicros) {
        if (placedNames.length < n) {
            placedNames = Arrays.copyOf(placedNames, Math.max(n, 2 * placedNames.length));   // a larger graph than before: not per frame
            placedSeries = Arrays.copyOf(placedSeries, placedNames.length);
        }
        for (int i = 0; i < n; i++) {
            String pass = passes[i];
            Series s = placedSeries[i];
            if (placedNames[i] != pass) {
                s = placedSeries[i] = series.computeIfAbsent(pass, k -> new Series());
                placedNames[i] = pass;
            }
            s.add(micros[i]);
        }
        frameSpan().add(spanMicros);
    }

    /** By place in the last timed frame: the pass name there and its series ({@link #addFrame}). */
    private String[] placedNames = new String[0];
    private Series[] placedSeries = new Series[0];

    synchronized void culled(String pass, boolean isCulled) {
        if (culled.put(pass, isCulled) == null) {
            names = java.util.Arrays.copyOf(names, names.length + 1);   // a pass seen for the first time: not per frame
            names[names.length - 1] = pass;
        }
        series.computeIfAbsent(pass, k -> new Series());
    }

    /** The passes in first-seen order, as {@link #passes()}'s keys, read by index: the HUD reads them every frame without a copy. */
    private String[] names = new String[0];

    /** How many passes were seen ({@link #passes()}'s size). */
    public synchronized int passCount() {
        return names.length;
    }

    /** The {@code i}-th pass seen, in {@link #passes()}'s order. */
    public synchronized String passName(int i) {
        return names[i];
    }

    /** Whether pass {@code name} was culled in the frame that last recorded it (false for a pass never seen). */
    public synchronized boolean isCulled(String name) {
        Boolean c = culled.get(name);
        return c != null && c;
    }

    /** Median GPU microseconds of the last samples of {@code pass}, NaN before the first arrives. */
    public synchronized double medianMicros(String pass) {
        Series s = series.get(pass);
        return s == null ? Double.NaN : s.median();
    }

    /** The newest sample of {@code pass} in microseconds, NaN before the first arrives. */
    public synchronized double latestMicros(String pass) {
        Series s = series.get(pass);
        return s == null || s.total == 0 ? Double.NaN : s.values[(int) ((s.total - 1) % WINDOW)];
    }

    /** Samples of {@code pass} read so far. */
    public synchronized long samples(String pass) {
        Series s = series.get(pass);
        return s == null ? 0 : s.total;
    }

    /** Pass name -> culled in the latest frame, in first-seen order. */
    public synchronized Map<String, Boolean> passes() {
        return new LinkedHashMap<>(culled);
    }

    /** Each pass seen with its median GPU time, or "culled": for logs, not per frame (it allocates). */
    @Override
    public synchronized String toString() {
        StringBuilder sb = new StringBuilder("PassStats[");
        String sep = "";
        for (Map.Entry<String, Boolean> e : culled.entrySet()) {
            sb.append(sep).append(e.getKey()).append(' ');
            double us = medianMicros(e.getKey());
            sb.append(e.getValue() ? "culled" : Double.isNaN(us) ? "not timed" : String.format(java.util.Locale.ROOT, "%.2f us", us));
            sep = ", ";
        }
        return sb.append(']').toString();
    }
}

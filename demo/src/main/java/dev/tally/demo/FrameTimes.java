package dev.tally.demo;

import java.util.Arrays;

/**
 * Frame times of a run, kept in one array sized up front (recording allocates nothing): the time from
 * one frame's end to the next one's, in nanoseconds. Intervals that include a soak report (a GPU idle
 * wait and an explicit GC) are left out by the caller.
 */
final class FrameTimes {
    private final long[] nanos;
    private int count;

    FrameTimes(long capacity) {
        nanos = new long[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(1, capacity))];
    }

    void add(long intervalNanos) {
        if (count < nanos.length) {
            nanos[count++] = intervalNanos;
        }
    }

    int count() {
        return count;
    }

    /** The {@code q} quantile (0..1, nearest rank) in microseconds; 0 with no frames. */
    double quantileMicros(double q) {
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * count);
        return sorted[Math.max(0, Math.min(count - 1, rank - 1))] / 1e3;
    }

    double maxMicros() {
        long max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, nanos[i]);
        }
        return max / 1e3;
    }
}

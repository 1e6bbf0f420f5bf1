package dev.tally.readback;

import java.util.Arrays;

/** The last {@value #SIZE} ages at hand-out, for a median; recording allocates nothing. */
final class AgeWindow {
    static final int SIZE = 1024;
    private final double[] ages = new double[SIZE];
    private long count;

    void add(double ageMillis) {
        ages[(int) (count++ % SIZE)] = ageMillis;
    }

    double median() {
        int n = (int) Math.min(count, SIZE);
        if (n == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(ages, n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

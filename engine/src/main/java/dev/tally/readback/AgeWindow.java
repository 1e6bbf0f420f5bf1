package dev.tally.readback;

import java.util.Arrays;

/** The last {@value #SIZE} ages at hand-out, for a median; neither recording nor the median allocates. */
final class AgeWindow {
    static final int SIZE = 1024;
    private final double[] ages = new double[SIZE];
    /** Scratch for sorting, kept; and the median it gave, valid while no age was added since. */
    private final double[] sorted = new double[SIZE];
    private long count;
    private long medianAtCount = -1;
    private double median;

    void add(double ageMillis) {
        ages[(int) (count++ % SIZE)] = ageMillis;
    }

    double median() {
        int n = (int) Math.min(count, SIZE);
        if (n == 0) {
            return Double.NaN;
        }
        if (medianAtCount != count) {
            System.arraycopy(ages, 0, sorted, 0, n);
            Arrays.sort(sorted, 0, n);
            median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            medianAtCount = count;
        }
        return median;
    }
}

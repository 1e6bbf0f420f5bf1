package dev.tally.internal.readback;

import java.util.Arrays;

/**
 * The last {@value #SIZE} ages at hand-out and their median. The window is also kept sorted, updated per age
 * (one binary search and one shift out, one in), so the median costs nothing to read: the HUD asks for it every
 * frame, and sorting the whole window each time was the frame's largest CPU cost. Nothing here allocates.
 */
final class AgeWindow {
    static final int SIZE = 1024;
    /** The ages in arrival order (a ring), and the same ages in ascending order. */
    private final double[] ages = new double[SIZE];
    private final double[] sorted = new double[SIZE];
    private long count;

    void add(double ageMillis) {
        int n = (int) Math.min(count, SIZE);
        if (n == SIZE) {
            // The oldest age leaves: find one copy of it in the sorted window and close the gap.
            int at = Arrays.binarySearch(sorted, 0, n, ages[(int) (count % SIZE)]);
            System.arraycopy(sorted, at + 1, sorted, at, n - at - 1);
            n--;
        }
        int at = Arrays.binarySearch(sorted, 0, n, ageMillis);
        at = at < 0 ? -at - 1 : at;
        System.arraycopy(sorted, at, sorted, at + 1, n - at);
        sorted[at] = ageMillis;
        ages[(int) (count++ % SIZE)] = ageMillis;
    }

    double median() {
        int n = (int) Math.min(count, SIZE);
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

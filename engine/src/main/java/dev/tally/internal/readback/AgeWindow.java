package dev.tally.internal.readback;

import java.util.Arrays;

/**
 * The last {@value #SIZE} ages at hand-out and their median. The window is also kept sorted, updated per age (two
 * binary searches and one shift of the ages between the one leaving and the one coming), so the median costs nothing
 * to read: the HUD asks for it every frame, and sorting the whole window each time was the frame's largest CPU cost.
 * Nothing here allocates.
 */
final class AgeWindow {
    static final int SIZE = 1024;
    /** The ages in arrival order (a ring), and the same ages in ascending order. */
    private final double[] ages = new double[SIZE];
    private final double[] sorted = new double[SIZE];
    private long count;

    void add(double ageMillis) {
        int n = (int) Math.min(count, SIZE);
        int in = Arrays.binarySearch(sorted, 0, n, ageMillis);
        in = in < 0 ? -in - 1 : in;   // where the new age goes among the window as it stands
        if (n == SIZE) {
            // The oldest age leaves: one copy of it is found, and only the ages between it and the new one's place move
            // (a third of the window on average for ages in random order, where a shift out and a shift in moved the
            // whole of it; none when the new age takes the old one's place).
            int out = Arrays.binarySearch(sorted, 0, n, ages[(int) (count % SIZE)]);
            if (in > out) {
                System.arraycopy(sorted, out + 1, sorted, out, in - 1 - out);
                sorted[in - 1] = ageMillis;
            } else {
                System.arraycopy(sorted, in, sorted, in + 1, out - in);
                sorted[in] = ageMillis;
            }
        } else {
            System.arraycopy(sorted, in, sorted, in + 1, n - in);
            sorted[in] = ageMillis;
        }
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

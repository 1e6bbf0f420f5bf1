package dev.tally.internal.readback;

import dev.tally.internal.sort.HeapSort;

import java.util.Arrays;

/**
 * The last {@value #SIZE} ages at hand-out and their median. A hand-out only stores its age (one slot of a ring); the
 * sorted copy the median is read from catches up when the median is asked for: age by age (two binary searches and one
 * shift of the ages between the one leaving and the one coming) when few arrived since, by one sort of the window when
 * many did. A HUD that reads the median a few times a second so costs the frame one store a sample, and a caller that
 * reads it every frame pays what keeping the window sorted per age costs. Nothing here allocates.
 */
final class AgeWindow {
    static final int SIZE = 1024;
    /** Above this many ages since the sorted copy was made, it is made again by one sort rather than age by age. */
    static final int CATCH_UP = 64;
    /**
     * The ages in arrival order, a ring twice the window: an age that arrived since the sorted copy was made finds the one
     * it pushed out of the window still there.
     */
    private final double[] ages = new double[2 * SIZE];
    /** The window's ages in ascending order, as of the first {@link #sortedCount} ages. */
    private final double[] sorted = new double[SIZE];
    private long count;
    private long sortedCount;

    void add(double ageMillis) {
        ages[(int) (count++ % (2 * SIZE))] = ageMillis;
    }

    double median() {
        int n = (int) Math.min(count, SIZE);
        if (n == 0) {
            return Double.NaN;
        }
        catchUp();
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private void catchUp() {
        if (count - sortedCount > CATCH_UP) {
            int n = (int) Math.min(count, SIZE);
            for (int i = 0; i < n; i++) {
                sorted[i] = ages[(int) ((count - n + i) % (2 * SIZE))];
            }
            HeapSort.sort(sorted, n);
            sortedCount = count;
            return;
        }
        for (; sortedCount < count; sortedCount++) {
            insert(ages[(int) (sortedCount % (2 * SIZE))], sortedCount);
        }
    }

    /** Puts age number {@code index} (counted from the first) into the sorted window that holds the ages before it. */
    private void insert(double age, long index) {
        int n = (int) Math.min(index, SIZE);
        int in = Arrays.binarySearch(sorted, 0, n, age);
        in = in < 0 ? -in - 1 : in;   // where the new age goes among the window as it stands
        if (n == SIZE) {
            // The oldest age leaves: one copy of it is found, and only the ages between it and the new one's place move
            // (a third of the window on average for ages in random order; none when the new age takes the old one's place).
            int out = Arrays.binarySearch(sorted, 0, n, ages[(int) ((index - SIZE) % (2 * SIZE))]);
            if (in > out) {
                System.arraycopy(sorted, out + 1, sorted, out, in - 1 - out);
                sorted[in - 1] = age;
            } else {
                System.arraycopy(sorted, in, sorted, in + 1, out - in);
                sorted[in] = age;
            }
        } else {
            System.arraycopy(sorted, in, sorted, in + 1, n - in);
            sorted[in] = age;
        }
    }
}

package dev.tally.internal.readback;

/**
 * The last {@value #SIZE} ages at hand-out and their median. Adding an age is one store: every sample of every ring
 * passes here at its frame's beginning, and keeping the window sorted there (two binary searches and a shift a third of
 * the window long, on average) was the largest part of the hand-out. The median is found when it is read, by selection
 * over a copy of the window, once per new age: a HUD reads it when its text is rebuilt (every 100 ms in the demo), not
 * every frame. Nothing here allocates.
 */
final class AgeWindow {
    static final int SIZE = 1024;
    /** The ages in arrival order (a ring). */
    private final double[] ages = new double[SIZE];
    /** A copy of the window, reordered by each selection. */
    private final double[] scratch = new double[SIZE];
    private long count;
    /** The median as of {@link #medianAt} ages; recomputed once more have come. */
    private double median = Double.NaN;
    private long medianAt;
    private long selections;

    void add(double ageMillis) {
        ages[(int) (count++ % SIZE)] = ageMillis;
    }

    double median() {
        int n = (int) Math.min(count, SIZE);
        if (n == 0) {
            return Double.NaN;
        }
        if (medianAt != count) {
            System.arraycopy(ages, 0, scratch, 0, n);   // the window's order does not matter to a median
            double upper = select(scratch, n, n / 2);
            // The lower middle of an even window is the largest age left of the upper middle after its selection.
            median = n % 2 == 1 ? upper : (max(scratch, n / 2) + upper) / 2;
            medianAt = count;
            selections++;
        }
        return median;
    }

    /** Medians computed so far (one per read that followed a new age). */
    long selections() {
        return selections;
    }

    private static double max(double[] a, int n) {
        double m = a[0];
        for (int i = 1; i < n; i++) {
            m = Math.max(m, a[i]);
        }
        return m;
    }

    /**
     * The {@code k}-th smallest of {@code a[0..n)}, leaving the smaller ones before index {@code k} and the larger after
     * (Hoare's selection, the pivot the median of three: ages arrive nearly sorted or all alike, the cases a first-element
     * pivot makes quadratic).
     */
    private static double select(double[] a, int n, int k) {
        int lo = 0, hi = n - 1;
        while (hi > lo) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < a[lo]) {
                swap(a, mid, lo);
            }
            if (a[hi] < a[lo]) {
                swap(a, hi, lo);
            }
            if (a[hi] < a[mid]) {
                swap(a, hi, mid);
            }
            double pivot = a[mid];
            int i = lo, j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(a, i++, j--);
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                break;   // between j and i every element equals the pivot
            }
        }
        return a[k];
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

package dev.tally.internal.sort;

/**
 * A heap sort of doubles in place, for the medians a frame reads: {@code Arrays.sort} may allocate on the heap (a run
 * table for partly ordered input; seen on JDK 25 in the pass timings' median), and a frame allocates nothing.
 * O(n log n) for any input, no extra memory.
 */
public final class HeapSort {
    private HeapSort() {
    }

    /** Sorts {@code a[0, n)} ascending in place, in the order of {@link Double#compare}. */
    public static void sort(double[] a, int n) {
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(a, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            double top = a[0];
            a[0] = a[end];
            a[end] = top;
            siftDown(a, 0, end);
        }
    }

    private static void siftDown(double[] a, int i, int n) {
        double v = a[i];
        while (2 * i + 1 < n) {
            int child = 2 * i + 1;
            if (child + 1 < n && Double.compare(a[child + 1], a[child]) > 0) {
                child++;
            }
            if (Double.compare(a[child], v) <= 0) {
                break;
            }
            a[i] = a[child];
            i = child;
        }
        a[i] = v;
    }
}

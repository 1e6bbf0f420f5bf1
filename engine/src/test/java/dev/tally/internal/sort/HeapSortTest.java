package dev.tally.internal.sort;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The heap sort orders as the JDK's sort does (Double.compare: -0.0 before 0.0, NaN last), for every size it meets. */
class HeapSortTest {
    @Test
    void itOrdersAsTheJdkDoes() {
        SplittableRandom r = new SplittableRandom(11);
        for (int n : new int[]{0, 1, 2, 3, 64, 128, 1023, 1024}) {
            double[] a = new double[n + 3];   // the tail past n is left alone
            for (int i = 0; i < a.length; i++) {
                a[i] = r.nextInt(3) == 0 ? r.nextInt(4) : r.nextDouble() * 50 - 25;
            }
            if (n > 3) {
                a[0] = -0.0;
                a[1] = Double.NaN;
                a[2] = 0.0;
            }
            double[] expected = a.clone();
            Arrays.sort(expected, 0, n);
            HeapSort.sort(a, n);
            assertArrayEquals(expected, a, "n = " + n);
        }
    }

    /** Partly ordered input, as a window of pass times or ages is: what made Arrays.sort allocate. */
    @Test
    void partlyOrderedInputIsOrderedToo() {
        double[] a = new double[128];
        for (int i = 0; i < a.length; i++) {
            a[i] = i % 16 == 0 ? 100 - i : i;
        }
        double[] expected = a.clone();
        Arrays.sort(expected);
        HeapSort.sort(a, a.length);
        assertArrayEquals(expected, a);
    }
}

package dev.tally.internal.readback;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The window gives the median a full sort of the last {@value AgeWindow#SIZE} ages gives, read after every age (the sorted
 * copy catching up age by age), every few ages, and seldom (made again by one sort).
 */
class AgeWindowTest {
    @Test
    void theMedianIsTheLastAgesMedianAfterEveryAge() {
        SplittableRandom r = new SplittableRandom(3);
        double[] all = new double[3 * AgeWindow.SIZE + 17];
        for (int i = 0; i < all.length; i++) {
            // Repeated values (a few distinct ages) and spread ones, so removal must find one copy among equals.
            all[i] = r.nextInt(4) == 0 ? r.nextInt(5) * 0.25 : r.nextDouble() * 100;
        }
        checkMedians(all, 1);
        checkMedians(all, 7);
        checkMedians(all, AgeWindow.CATCH_UP);
        checkMedians(all, AgeWindow.CATCH_UP + 1);
        checkMedians(all, 1000);
    }

    @Test
    void agesDriftingAsAFramesDoKeepTheMedianRight() {
        // Each age near the last, drifting up then down: the new age's place is next to, above or below the leaving one's.
        SplittableRandom r = new SplittableRandom(7);
        double[] all = new double[4 * AgeWindow.SIZE + 5];
        double age = 1.0;
        for (int i = 0; i < all.length; i++) {
            age += (i / AgeWindow.SIZE % 2 == 0 ? 0.001 : -0.001) + (r.nextDouble() - 0.5) * 0.01;
            all[i] = r.nextInt(8) == 0 ? all[Math.max(0, i - AgeWindow.SIZE)] : age;   // now and then the very age leaving
        }
        checkMedians(all, 1);
        checkMedians(all, 5);
        checkMedians(all, 3 * AgeWindow.SIZE);
    }

    /** Adds every age, reading the median after every {@code stride}-th one and after the last. */
    private static void checkMedians(double[] all, int stride) {
        AgeWindow w = new AgeWindow();
        assertTrue(Double.isNaN(w.median()));
        for (int i = 0; i < all.length; i++) {
            w.add(all[i]);
            if ((i + 1) % stride != 0 && i != all.length - 1) {
                continue;
            }
            int from = Math.max(0, i + 1 - AgeWindow.SIZE);
            double[] last = Arrays.copyOfRange(all, from, i + 1);
            Arrays.sort(last);
            int n = last.length;
            double expected = n % 2 == 1 ? last[n / 2] : (last[n / 2 - 1] + last[n / 2]) / 2;
            assertEquals(expected, w.median(), 0.0, "after age " + i + ", read every " + stride);
        }
    }
}

package dev.tally.internal.readback;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** The kept-sorted window gives the median a full sort of the last {@value AgeWindow#SIZE} ages gives, after every age. */
class AgeWindowTest {
    @Test
    void theMedianIsTheLastAgesMedianAfterEveryAge() {
        SplittableRandom r = new SplittableRandom(3);
        AgeWindow w = new AgeWindow();
        assertTrue(Double.isNaN(w.median()));
        double[] all = new double[3 * AgeWindow.SIZE + 17];
        for (int i = 0; i < all.length; i++) {
            // Repeated values (a few distinct ages) and spread ones, so removal must find one copy among equals.
            all[i] = r.nextInt(4) == 0 ? r.nextInt(5) * 0.25 : r.nextDouble() * 100;
            w.add(all[i]);
            int from = Math.max(0, i + 1 - AgeWindow.SIZE);
            double[] last = Arrays.copyOfRange(all, from, i + 1);
            Arrays.sort(last);
            int n = last.length;
            double expected = n % 2 == 1 ? last[n / 2] : (last[n / 2 - 1] + last[n / 2]) / 2;
            assertEquals(expected, w.median(), 0.0, "after age " + i);
        }
    }
}

package dev.tally.demo.app;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The HUD's digit-by-digit number formatting prints what String.format's %.Nf prints. */
class HudLinesTest {
    @Test
    void fixedMatchesFormat() {
        SplittableRandom r = new SplittableRandom(3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            double v = switch (i % 4) {
                case 0 -> r.nextDouble(-1e6, 1e6);
                case 1 -> r.nextDouble(-2, 2);
                case 2 -> Math.round(r.nextDouble(-500, 500)) / 8.0;   // exact halves and eighths
                default -> r.nextInt(-100_000, 100_000);
            };
            int decimals = i % 5;
            b.setLength(0);
            assertEquals(String.format(Locale.ROOT, "%." + decimals + "f", v), HudLines.fixed(b, v, decimals).toString(), "value " + v);
        }
    }

    @Test
    void significantMatchesFormat() {
        SplittableRandom r = new SplittableRandom(5);
        StringBuilder b = new StringBuilder();
        double[] edges = {0, 1e-4, 9.99996, 9.99994, 99.995, 0.00099996, 1234.5, 9999.5, 10000, 0.5, -3.14159, Double.NaN, 1e-7, 123456};
        for (int i = 0; i < 20_000 + edges.length; i++) {
            double v = i < edges.length ? edges[i] : Math.pow(10, r.nextDouble(-5, 6)) * (r.nextBoolean() ? 1 : -1);
            b.setLength(0);
            assertEquals(String.format(Locale.ROOT, "%.4g", v), HudLines.significant(b, v, 4).toString(), "value " + v);
        }
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The soak judges RSS by its peaks in the first and second half of the reports: swings pass, growth fails. */
class SoakRssTest {
    private static List<SoakCommand.Snapshot> reports(long... rssKb) {
        List<SoakCommand.Snapshot> out = new ArrayList<>();
        for (int i = 0; i < rssKb.length; i++) {
            out.add(new SoakCommand.Snapshot(300L * (i + 1), 1, 1, 22, 527540, 0, 10 << 20, rssKb[i], 0, 0, 3, 0, 0, 0, 0));
        }
        return out;
    }

    private static boolean grew(long... rssKb) {
        List<SoakCommand.Snapshot> g = reports(rssKb);
        long[] peaks = SoakCommand.rssPeaks(g, g.get(1));
        return peaks[1] - peaks[0] > peaks[0] * 0.05;
    }

    @Test
    void swingsFromReportToReportAreNotGrowth() {
        // Seen on lavapipe in a resizing window (MiB): 339, 344, 368, 347, 351, 351, 362.
        assertFalse(grew(347_000, 352_000, 376_000, 355_000, 359_000, 359_000, 370_000));
    }

    @Test
    void aSteadyRiseIsGrowth() {
        assertTrue(grew(300_000, 310_000, 320_000, 330_000, 340_000, 350_000, 360_000));
    }

    @Test
    void unknownRssIsNotJudged() {
        List<SoakCommand.Snapshot> g = reports(-1, -1, -1);
        assertNull(SoakCommand.rssPeaks(g, g.get(1)));
    }
}

package dev.tally.demo.app;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RefreshClockTest {
    /** The frames of a run at {@code dt} seconds a frame (a reproducible run's clock: frame times dt) that rebuild the text. */
    private static List<Integer> rebuilds(double period, double dt, int frames) {
        RefreshClock clock = new RefreshClock(period);
        List<Integer> out = new ArrayList<>();
        for (int f = 0; f < frames; f++) {
            if (clock.due(f * dt, f == frames - 1)) {
                out.add(f);
            }
        }
        return out;
    }

    @Test
    void aTenthOfASecondAtSixtyFramesASecondIsEverySixthFrameFromTheFirstAndTheLast() {
        List<Integer> want = new ArrayList<>();
        for (int f = 0; f < 6003; f += 6) {
            want.add(f);
        }
        want.add(6003);   // the last frame, 0.05 s after the last rebuild, shows its own figures
        assertEquals(want, rebuilds(0.1, 1.0 / 60, 6004));
    }

    @Test
    void periodZeroRebuildsEveryFrame() {
        assertEquals(500, rebuilds(0, 1.0 / 60, 500).size());
    }

    @Test
    void aSlowFrameRebuildsAtOnceAndThePeriodRestartsFromIt() {
        RefreshClock clock = new RefreshClock(0.1);
        assertTrue(clock.due(0, false));
        assertEquals(false, clock.due(0.05, false));
        assertTrue(clock.due(0.35, false));   // one long frame: no catching up on the rebuilds it skipped
        assertEquals(false, clock.due(0.44, false));
        assertTrue(clock.due(0.45, false));
    }

    @Test
    void aNegativePeriodIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RefreshClock(-1));
        assertEquals("HUD text refresh period -1.0 s: must be 0 (every frame) or more", e.getMessage());
    }
}

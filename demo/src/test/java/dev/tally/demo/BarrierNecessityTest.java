package dev.tally.demo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The graph's barriers are what keeps the demo's frames correct: recorded without them
 * ({@code debug.skipBarriers}), synchronization validation reports hazards and the demo fails; with
 * them, the same run is silent.
 */
class BarrierNecessityTest {
    private static Cli.Run demo(boolean skipBarriers) {
        return Cli.run("demo", "--headless", "--frames", "30", "--width", "64", "--height", "36", "--validate",
                "--set", "debug.skipBarriers=" + skipBarriers);
    }

    @Test
    void withoutTheGraphsBarriersSynchronizationValidationFails() {
        Cli.Run without = demo(true);
        assertEquals(1, without.status(), without::toString);
        assertTrue(without.err().contains("SYNC-HAZARD-"), without::toString);
        assertTrue(without.out().matches("(?s).*validation: [1-9][0-9]* errors.*"), without::toString);
    }

    @Test
    void withThemTheSameRunIsSilent() {
        Cli.Run with = demo(false);
        assertEquals(0, with.status(), with::toString);
        assertFalse(with.err().contains("[validation"), with::toString);
        assertTrue(with.out().contains("validation: 0 errors, 0 warnings"), with::toString);
    }
}

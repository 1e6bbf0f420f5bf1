package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a host printing tally.passStats() sees: each pass with its median, culled or not yet timed. */
class PassTimesTest {
    @Test
    void printsEachPassWithItsMedianOrWhyItHasNone() {
        PassTimes t = new PassTimes();
        t.culled("scene", false);
        t.culled("hud", true);
        t.culled("readback", false);
        t.add("scene", 2.0);
        t.add("scene", 4.0);
        t.add("scene", 3.0);
        assertEquals("PassStats[scene 3.00 us, hud culled, readback not timed]", t.toString());
    }
}

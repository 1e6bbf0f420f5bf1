package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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

    /**
     * Timed frames whose passes change place, name and number: each pass's samples reach its own series, however the
     * frame before placed it (the series a place kept is used only while the same name is there).
     */
    @Test
    void aTimedFrameGivesEachPassItsOwnSamples() {
        PassTimes t = new PassTimes();
        Map<String, List<Double>> expected = new HashMap<>();
        String[] pool = {"scene", "histogram", "reduce", "exposure", "hud", new String("scene"), "copy"};
        Random random = new Random(19);
        String[] names = new String[6];
        double[] micros = new double[6];
        for (int frame = 0; frame < 500; frame++) {
            int n = 1 + random.nextInt(names.length);
            for (int i = 0; i < n; i++) {
                if (frame == 0 || random.nextInt(5) == 0) {
                    names[i] = pool[random.nextInt(pool.length)];   // "scene" as two strings: equal names, one pass
                }
                micros[i] = frame + i / 10.0;
            }
            for (int i = 0; i < n; i++) {
                expected.computeIfAbsent(names[i], k -> new ArrayList<>()).add(micros[i]);
            }
            expected.computeIfAbsent(GraphRuntime.FRAME_SPAN, k -> new ArrayList<>()).add(frame + 0.5);
            t.addFrame(names, micros, n, frame + 0.5);
        }
        for (Map.Entry<String, List<Double>> e : expected.entrySet()) {
            List<Double> v = e.getValue();
            assertEquals(v.size(), t.samples(e.getKey()), e.getKey() + ": samples");
            assertEquals(v.get(v.size() - 1), t.latestMicros(e.getKey()), e.getKey() + ": latest");
        }
    }
}

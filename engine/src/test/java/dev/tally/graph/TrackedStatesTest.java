package dev.tally.graph;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** The runtime's table of where resources were left agrees with a plain map through puts, growth and pruning. */
class TrackedStatesTest {
    private static ResourceState state(long n) {
        return new ResourceState(n, 0, 0, 0, 0, (int) (n % 7));
    }

    @Test
    void agreesWithAMapThroughGrowthAndPruning() {
        TrackedStates table = new TrackedStates();
        Map<Long, ResourceState> states = new HashMap<>();
        Map<Long, Long> seen = new HashMap<>();
        SplittableRandom r = new SplittableRandom(11);
        for (long frame = 0; frame < 2000; frame++) {
            for (int k = 0; k < 8; k++) {
                // Serials from a window that drifts: old ones stop being seen and must be pruned.
                long serial = frame / 4 + r.nextInt(300) - (r.nextInt(10) == 0 ? 1L << 40 : 0);
                ResourceState s = state(r.nextLong(1, 1000));
                table.put(serial, s, frame);
                states.put(serial, s);
                seen.put(serial, frame);
            }
            if (frame % 64 == 0) {
                long now = frame;
                table.forgetOlderThan(now, 64);
                seen.entrySet().removeIf(e -> {
                    boolean old = now - e.getValue() > 64;
                    if (old) {
                        states.remove(e.getKey());
                    }
                    return old;
                });
            }
            long probe = frame / 4 + r.nextInt(-50, 350);
            assertEquals(states.getOrDefault(probe, ResourceState.UNUSED), table.get(probe), "serial " + probe + " at frame " + frame);
        }
        assertEquals(states.size(), table.size());
        for (Map.Entry<Long, ResourceState> e : states.entrySet()) {
            assertEquals(e.getValue(), table.get(e.getKey()));
        }
        assertSame(ResourceState.UNUSED, table.get(-5), "an untracked serial is UNUSED");
    }
}

package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The duplicate checks of a frame's declaration skip their tables while a frame repeats the last one: checked against a
 * plain set over thousands of frames that repeat, change, shorten, lengthen and declare duplicates, in which every answer
 * must be the set's. No GPU.
 */
class RepeatedDeclarationsTest {
    private static final int FRAMES = 3000;

    @Test
    void namesAreClaimedOnceAFrameWhetherTheFrameRepeatsOrNot() {
        Random random = new Random(20);
        String[] pool = new String[40];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new String("name" + (i % 30));   // ten names twice, as equal strings that are other objects
        }
        UniqueNames names = new UniqueNames();
        List<Integer> last = List.of();
        int repeats = 0;
        for (int frame = 0; frame < FRAMES; frame++) {
            names.reset();
            List<Integer> sequence = nextSequence(random, last, pool.length);
            Set<String> claimed = new HashSet<>();
            List<Integer> accepted = new ArrayList<>();
            for (int k : sequence) {
                boolean expected = claimed.add(pool[k]);
                assertEquals(expected, names.claim(pool[k]), "frame " + frame + ": claim of " + pool[k] + " (entry " + k + ")");
                if (expected) {
                    accepted.add(k);
                }
            }
            repeats += accepted.equals(last) ? 1 : 0;
            last = accepted;
        }
        assertEquals(true, repeats > FRAMES / 4, "frames that repeated the last: " + repeats);
    }

    @Test
    void objectsAreFoundWithTheirResourceWhetherTheFrameRepeatsOrNot() {
        Random random = new Random(21);
        Object[] pool = new Object[30];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = i % 5 == 0 ? null : new Object();   // null: a resource with no object behind it
        }
        DeclaredObjects table = new DeclaredObjects();
        List<Integer> last = List.of();
        for (int frame = 0; frame < FRAMES; frame++) {
            table.reset();
            List<Integer> sequence = nextSequence(random, last, pool.length);
            Map<Object, Integer> declared = new HashMap<>();
            List<Integer> accepted = new ArrayList<>();
            for (int k : sequence) {
                Object o = pool[k];
                int expected = o == null ? -1 : declared.getOrDefault(o, -1);
                assertEquals(expected, table.resourceOf(o), "frame " + frame + ": object " + k);
                if (expected < 0) {
                    int resource = accepted.size();
                    table.declare(o, resource);
                    if (o != null) {
                        declared.put(o, resource);
                    }
                    accepted.add(k);
                }
            }
            last = accepted;
        }
    }

    /**
     * Mostly the last frame's declarations again; else it changed in one place (as a ring's slot does), in two to seven
     * places (past the departures a frame may make without its table), shortened, lengthened, or with a duplicate.
     */
    private static List<Integer> nextSequence(Random random, List<Integer> last, int poolSize) {
        List<Integer> next = new ArrayList<>(last);
        switch (last.isEmpty() ? 4 : random.nextInt(10)) {
            case 0 -> next.set(random.nextInt(next.size()), random.nextInt(poolSize));
            case 5, 6 -> {
                for (int i = 0, n = 2 + random.nextInt(6); i < n; i++) {
                    next.set(random.nextInt(next.size()), random.nextInt(poolSize));
                }
            }
            case 1 -> next.subList(random.nextInt(next.size()), next.size()).clear();
            case 2 -> next.add(random.nextInt(next.size() + 1), next.get(random.nextInt(next.size())));   // a duplicate
            case 3 -> next.add(random.nextInt(poolSize));
            case 4 -> {
                next.clear();
                for (int i = 0, n = 1 + random.nextInt(poolSize); i < n; i++) {
                    next.add(random.nextInt(poolSize));
                }
            }
            default -> {
            }
        }
        return next;
    }
}

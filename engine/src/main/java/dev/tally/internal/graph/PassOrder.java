package dev.tally.internal.graph;

import dev.tally.graph.GraphException;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * How the compiler orders the passes that survive culling. Any topological order of the dependencies
 * (read after write, write after read, write after write on each resource) is legal; the declaration
 * order is one of them. A random order is a debug aid: it shakes out barriers that only hold by
 * accident of declaration order.
 */
public interface PassOrder {
    /**
     * @param needed       pass indices to order, ascending
     * @param predecessors by pass index: the passes that must run before it (only needed ones matter)
     * @return the needed passes in a legal order
     */
    List<Integer> order(List<Integer> needed, List<List<Integer>> predecessors);

    /** The declaration order. */
    PassOrder DECLARED = (needed, predecessors) -> new ArrayList<>(needed);

    /** A random legal order, the same for the same seed and graph. */
    static PassOrder random(long seed) {
        return new PassOrder() {
            @Override
            public List<Integer> order(List<Integer> needed, List<List<Integer>> predecessors) {
                Random random = new Random(seed);
                List<Integer> left = new ArrayList<>(needed);
                List<Integer> out = new ArrayList<>();
                boolean[] placed = new boolean[predecessors.size()];
                boolean[] isNeeded = new boolean[predecessors.size()];
                needed.forEach(i -> isNeeded[i] = true);
                while (!left.isEmpty()) {
                    List<Integer> ready = new ArrayList<>();
                    for (int p : left) {
                        boolean ok = true;
                        for (int pred : predecessors.get(p)) {
                            ok &= !isNeeded[pred] || placed[pred];
                        }
                        if (ok) {
                            ready.add(p);
                        }
                    }
                    if (ready.isEmpty()) {
                        throw new GraphException("no legal pass order: the dependencies form a cycle");
                    }
                    int pick = ready.get(random.nextInt(ready.size()));
                    placed[pick] = true;
                    out.add(pick);
                    left.remove(Integer.valueOf(pick));
                }
                return out;
            }

            @Override
            public String toString() {
                return "random(" + seed + ")";
            }
        };
    }
}

package dev.tally.graph;

import java.util.HashMap;
import java.util.Map;

/**
 * Compiled plans by topology key: the cache {@link GraphRuntime#record} consults before recording (a
 * frame whose passes, uses and resource descriptions match an earlier one reuses that frame's
 * {@link GraphPlan}; only the barriers are planned again). Needs no GPU.
 */
public final class PlanCache {
    private final Map<String, GraphPlan> plans = new HashMap<>();
    private final int capacity;
    private long compiles;
    private long hits;

    /** A cache of up to 16 topologies, as the runtime keeps. */
    public PlanCache() {
        this(16);
    }

    public PlanCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** The plan for this graph's topology: the cached one, or a fresh compile (then cached). */
    public GraphPlan planFor(FrameGraph g) {
        return planFor(g.topologyKey(), g, PassOrder.DECLARED);
    }

    /**
     * As {@link #planFor(FrameGraph)}, with the graph's topology key already computed and the pass order
     * the runtime uses (a debug order stays the same for the runtime's life, so plans still cache by key).
     */
    GraphPlan planFor(String key, FrameGraph g, PassOrder order) {
        GraphPlan plan = plans.get(key);
        if (plan != null) {
            hits++;
            return plan;
        }
        g.requireComplete();
        plan = GraphCompiler.compile(g, order);
        compiles++;
        if (plans.size() >= capacity) {
            plans.clear();
        }
        plans.put(key, plan);
        return plan;
    }

    /** Forgets every plan (the pass order changed). */
    void clear() {
        plans.clear();
    }

    /** Frames that needed a compile. */
    public long compiles() {
        return compiles;
    }

    /** Frames that reused a cached plan. */
    public long hits() {
        return hits;
    }

    public int size() {
        return plans.size();
    }
}

package dev.tally.internal.graph;

import dev.tally.internal.vk.ResourceState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiled topologies by topology key: each keeps its {@link GraphPlan}, the transient memory laid out
 * for it and the barriers planned for it, so that a frame of a known topology compiles, allocates and
 * plans nothing. One eviction policy for all of it: a topology unused for more than
 * {@link #KEEP_UNUSED_FRAMES} recorded frames is released whole (its memory deferred past the frames
 * that may still use it), and of more than {@link #CAPACITY} the least recently used goes first.
 */
final class TopologyCache implements AutoCloseable {
    static final int CAPACITY = 16;
    static final int KEEP_UNUSED_FRAMES = 8;

    /** Where transient memory comes from and goes back to. */
    interface Memory {
        Transients create(GraphDeclaration g, GraphPlan plan, boolean poison);

        void release(Transients transients);
    }

    /** Barriers planned for one set of inputs: each pass's lane and where every resource and slot starts the frame. */
    private record Variant(QueueLanes lanes, int[] laneOf, ResourceState[] entries, ResourceState[] slots, BarrierPlanner.Barriers barriers) {
    }

    /** One topology: compiled once, its memory and its barrier variants (the newest last, at most {@link #CAPACITY}). */
    static final class Compiled {
        final String key;
        final GraphPlan plan;
        Transients transients;
        private final List<Variant> variants = new ArrayList<>();
        private long lastUsedFrame;

        private Compiled(String key, GraphPlan plan) {
            this.key = key;
            this.plan = plan;
        }
    }

    private final Memory memory;
    private final LinkedHashMap<String, Compiled> entries = new LinkedHashMap<>(CAPACITY, 0.75f, true);
    /** This frame's entry states by resource id (null for transients), reused from frame to frame. */
    private ResourceState[] scratch = new ResourceState[0];
    /**
     * The topology acquired last, always the map's most recently used entry: a frame of the same key (the very string, as
     * the recorder hands back for an unchanged topology) takes it without hashing into the map and walking its nodes.
     */
    private Compiled last;
    private long mapLookups;
    private long compiles;
    private long barrierPlans;
    private long barrierHits;

    TopologyCache(Memory memory) {
        this.memory = memory;
    }

    /**
     * The compiled topology of {@code g} (key {@code key}), used in frame {@code frame}: compiled with
     * {@code order} and given transient memory (laid out for poisoning when {@code poison}) if new.
     */
    Compiled acquire(String key, GraphDeclaration g, PassOrder order, boolean poison, long frame) {
        Compiled c = last;
        if (c == null || c.key != key) {
            c = entries.get(key);
            mapLookups++;
        }
        if (c == null) {
            g.requireComplete();
            c = new Compiled(key, GraphCompiler.compile(g, order));
            compiles++;
            entries.put(key, c);
        }
        if (c.transients != null && c.transients.poisoned != poison) {
            memory.release(c.transients);   // laid out anew: poisoning needs TRANSFER_DST usage
            c.transients = null;
        }
        if (c.transients == null) {
            c.transients = memory.create(g, c.plan, poison);
        }
        c.lastUsedFrame = frame;
        last = c;   // never evicted below: it was used this frame and is the newest entry
        if (entries.size() > 1) {
            evict(frame);   // with one topology there is nothing else to release (and no iterator to make)
        }
        return c;
    }

    private void evict(long frame) {
        int over = entries.size() - CAPACITY;
        for (Iterator<Compiled> it = entries.values().iterator(); it.hasNext(); ) {
            Compiled c = it.next();   // least recently used first
            if (over-- > 0 || frame - c.lastUsedFrame > KEEP_UNUSED_FRAMES) {
                it.remove();
                release(c);
            }
        }
    }

    /**
     * The barriers of {@code g} compiled as {@code c}: those planned for an earlier frame when every input
     * matches (lanes, each pass's lane, entry states, slot states), else planned now and kept.
     */
    BarrierPlanner.Barriers barriers(Compiled c, GraphDeclaration g, int[] laneOf, QueueLanes lanes) {
        int count = g.resources.size();
        if (scratch.length != count) {
            scratch = new ResourceState[count];
        }
        for (int i = 0; i < count; i++) {
            GraphResource r = g.resources.get(i);
            scratch[r.id] = r.transientResource() ? null : r.entry;
        }
        ResourceState[] slotStates = c.transients.slotStates;
        for (int i = c.variants.size() - 1; i >= 0; i--) {
            Variant v = c.variants.get(i);
            if (v.lanes.equals(lanes) && Arrays.equals(v.laneOf, laneOf) && Arrays.equals(v.entries, scratch) && Arrays.equals(v.slots, slotStates)) {
                barrierHits++;
                return v.barriers;
            }
        }
        BarrierPlanner.Barriers barriers = BarrierPlanner.plan(g, c.plan, s -> slotStates[s], laneOf, lanes);
        barrierPlans++;
        if (c.variants.size() >= CAPACITY) {
            c.variants.remove(0);
        }
        c.variants.add(new Variant(lanes, laneOf.clone(), scratch.clone(), slotStates.clone(), barriers));
        return barriers;
    }

    private void release(Compiled c) {
        if (c.transients != null) {
            memory.release(c.transients);
            c.transients = null;
        }
    }

    /** Forgets every topology (the pass order or the lanes changed: plans are compiled anew). */
    void clear() {
        entries.values().forEach(this::release);
        entries.clear();
        last = null;
    }

    /** Frames whose topology was looked up in the map (the rest had the last frame's key). */
    long mapLookups() { return mapLookups; }
    /** Frames that needed a compile. */
    long compiles() { return compiles; }
    /** Frames whose barriers were planned (the rest reused an earlier frame's). */
    long barrierPlans() { return barrierPlans; }
    long barrierHits() { return barrierHits; }
    int size() { return entries.size(); }

    @Override
    public void close() {
        clear();
    }
}

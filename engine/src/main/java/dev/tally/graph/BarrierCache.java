package dev.tally.graph;

import dev.tally.vk.ResourceState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Planned barriers by everything they depend on: the topology (its key and compiled plan), the lanes and
 * each pass's lane, where every imported and history resource starts the frame and where each transient
 * memory slot was left. In steady state these repeat frame after frame, so a frame reuses the barriers
 * planned for an earlier one and plans nothing; any difference (a changed import's entry access, a slot
 * left in another layout, a pass moved to another lane) plans anew. Needs no GPU.
 */
final class BarrierCache {
    private record Entry(String key, GraphPlan plan, QueueLanes lanes, int[] laneOf, ResourceState[] entries, ResourceState[] slots,
                         BarrierPlanner.Barriers barriers) {
    }

    private final int capacity;
    private final List<Entry> entries = new ArrayList<>();
    /** This frame's entry states by resource id (null for transients), reused from frame to frame. */
    private ResourceState[] scratch = new ResourceState[0];
    private long plans;
    private long hits;

    BarrierCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * The barriers for {@code g} compiled as {@code plan} under topology {@code key}: the cached ones when
     * every input matches an earlier frame's, else planned now (and kept, the oldest forgotten first).
     *
     * @param slotStates where each of the plan's memory slots was left (read, not kept)
     */
    BarrierPlanner.Barriers planFor(String key, FrameGraph g, GraphPlan plan, ResourceState[] slotStates, int[] laneOf, QueueLanes lanes) {
        int count = g.resources.size();
        if (scratch.length != count) {
            scratch = new ResourceState[count];
        }
        for (int i = 0; i < count; i++) {
            GraphResource r = g.resources.get(i);
            scratch[r.id] = r.transientResource() ? null : r.entry;
        }
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            if (e.plan == plan && e.key.equals(key) && e.lanes.equals(lanes) && Arrays.equals(e.laneOf, laneOf)
                    && Arrays.equals(e.entries, scratch) && Arrays.equals(e.slots, slotStates)) {
                hits++;
                return e.barriers;
            }
        }
        BarrierPlanner.Barriers barriers = BarrierPlanner.plan(g, plan, s -> slotStates[s], laneOf, lanes);
        plans++;
        if (entries.size() >= capacity) {
            entries.remove(0);
        }
        entries.add(new Entry(key, plan, lanes, laneOf.clone(), scratch.clone(), slotStates.clone(), barriers));
        return barriers;
    }

    /** Frames whose barriers were planned. */
    long plans() {
        return plans;
    }

    /** Frames that reused barriers planned for an earlier frame. */
    long hits() {
        return hits;
    }

    void clear() {
        entries.clear();
    }
}

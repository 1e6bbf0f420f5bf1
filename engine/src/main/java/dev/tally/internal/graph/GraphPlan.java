package dev.tally.internal.graph;

import java.util.List;

/**
 * A compiled frame: the passes to run in order, the culled ones, and how transient resources share
 * memory. Barriers are planned per frame from it ({@link BarrierPlanner}) because they also depend on
 * where each resource was left by the previous frame.
 *
 * @param order         indices of the passes to run, in order
 * @param culled        indices of passes whose results nobody uses
 * @param slots         memory slots for transients; members never live at the same time
 * @param slotOf        slot index per resource id (-1 for imported and history resources)
 * @param firstUse      position in {@code order} of each resource's first use (-1 if unused)
 * @param lastUse       position in {@code order} of each resource's last use
 */
public record GraphPlan(List<Integer> order, List<Integer> culled, List<Slot> slots, int[] slotOf, int[] firstUse, int[] lastUse) {
    /** Transients sharing one allocation, in order of use; {@code bytes} is the largest member. */
    public record Slot(boolean image, long bytes, List<Integer> members) {
    }

    /** Bytes the transients would take with one allocation each. */
    public long requestedBytes(GraphDeclaration g) {
        long sum = 0;
        for (GraphResource r : g.resources) {
            if (r.transientResource() && firstUse[r.id] >= 0) {
                sum += r.bytes();
            }
        }
        return sum;
    }

    /** Bytes the slots take. */
    public long allocatedBytes() {
        return slots.stream().mapToLong(Slot::bytes).sum();
    }
}

package dev.tally.graph;

/**
 * One barrier the graph will record: for a buffer or image resource (or, for memory that changes hands
 * between aliased transients, a global memory barrier), from the source scope to the destination scope,
 * with an image layout transition when the layouts differ.
 */
public record BarrierSpec(int resource, boolean image, boolean aliasing, long srcStages, long srcAccess, long dstStages,
                          long dstAccess, int oldLayout, int newLayout) {
    public boolean layoutChange() {
        return image && oldLayout != newLayout;
    }
}

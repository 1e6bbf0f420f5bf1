package dev.tally.internal.graph;

/**
 * One barrier the graph will record: for a buffer or image resource (or, for memory that changes hands
 * between aliased transients, a global memory barrier), from the source scope to the destination scope,
 * with an image layout transition when the layouts differ, and for a resource that moves between the
 * queue families of two lanes, the release or acquire half of the ownership transfer.
 */
public record BarrierSpec(int resource, boolean image, boolean aliasing, long srcStages, long srcAccess, long dstStages,
                          long dstAccess, int oldLayout, int newLayout, int fromLane, int toLane) {
    /** A barrier within one queue. */
    public BarrierSpec(int resource, boolean image, boolean aliasing, long srcStages, long srcAccess, long dstStages, long dstAccess,
                       int oldLayout, int newLayout) {
        this(resource, image, aliasing, srcStages, srcAccess, dstStages, dstAccess, oldLayout, newLayout, -1, -1);
    }

    /**
     * Half of a queue-family ownership transfer (release on {@code fromLane}, acquire on {@code toLane}; both
     * halves carry the same lanes and layouts), or a plain barrier when false.
     */
    public boolean ownershipTransfer() {
        return fromLane >= 0;
    }

    public boolean layoutChange() {
        return image && oldLayout != newLayout;
    }
}

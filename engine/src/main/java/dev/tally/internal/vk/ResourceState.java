package dev.tally.internal.vk;

import dev.tally.graph.Access;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;

/**
 * What the GPU last did to a resource: the last write (stages and access), the stages and accesses
 * that have seen it since (through a barrier), the stages that read it since, and an image's layout.
 * Every {@link TrackedBuffer} and {@link TrackedImage} keeps the state its recorded work left it in.
 */
public record ResourceState(long writeStages, long writeAccess, long visibleStages, long visibleAccess, long readStages,
                            int layout) {
    /** Never touched (or contents irrelevant): no barrier needed before the first use, images start UNDEFINED. */
    public static final ResourceState UNUSED = new ResourceState(0, 0, 0, 0, 0, VK_IMAGE_LAYOUT_UNDEFINED);

    /** The state once the GPU finished an access: a write of {@code writeAccess}, or (no write access) a read. */
    /** The state a resource is left in once the GPU finished {@code a} (an imported resource's entry state). */
    public static ResourceState after(Access a) {
        return after(a.stages(), a.writeAccess(), a.layout(), a.write());
    }

    public static ResourceState after(long stages, long writeAccess, int layout, boolean write) {
        return write ? new ResourceState(stages, writeAccess, 0, 0, 0, layout) : new ResourceState(0, 0, 0, 0, stages, layout);
    }

    /**
     * Field by field, as the record's own would: written out because the barrier cache compares every resource's state
     * each frame, and the generated equals reached there through method handles not inlined (0.8 us a frame of the demo
     * on lavapipe by a 1 ms CPU profile).
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceState s && writeStages == s.writeStages && writeAccess == s.writeAccess && visibleStages == s.visibleStages
                && visibleAccess == s.visibleAccess && readStages == s.readStages && layout == s.layout;
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(writeStages);
        h = 31 * h + Long.hashCode(writeAccess);
        h = 31 * h + Long.hashCode(visibleStages);
        h = 31 * h + Long.hashCode(visibleAccess);
        h = 31 * h + Long.hashCode(readStages);
        return 31 * h + layout;
    }

    /** Some GPU work wrote or read the resource: the next use needs a barrier. */
    public boolean touched() {
        return writeStages != 0 || readStages != 0;
    }
}

package dev.tally.graph;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;

/**
 * What the GPU last did to a resource: the last write (stages and access), the stages and accesses
 * that have seen it since (through a barrier), the stages that read it since, and an image's layout.
 */
public record ResourceState(long writeStages, long writeAccess, long visibleStages, long visibleAccess, long readStages,
                            int layout) {
    /** Never touched (or contents irrelevant): no barrier needed before the first use, images start UNDEFINED. */
    public static final ResourceState UNUSED = new ResourceState(0, 0, 0, 0, 0, VK_IMAGE_LAYOUT_UNDEFINED);

    /** The state after the GPU finished with an access, as an imported resource's entry state. */
    public static ResourceState after(Access a) {
        return a.write() ? new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, a.layout())
                : new ResourceState(0, 0, 0, 0, a.stages(), a.layout());
    }

    boolean touched() {
        return writeStages != 0 || readStages != 0;
    }
}

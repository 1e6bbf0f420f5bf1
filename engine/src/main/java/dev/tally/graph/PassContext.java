package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

/** What a pass's execute step gets: the command buffer and its resources, resolved to GPU objects. */
public final class PassContext {
    private final VulkanContext ctx;
    private final VkCommandBuffer cmd;
    private final Object[] physical;
    private final long frame;
    private int width;
    private int height;

    PassContext(VulkanContext ctx, VkCommandBuffer cmd, Object[] physical, long frame) {
        this.ctx = ctx;
        this.cmd = cmd;
        this.physical = physical;
        this.frame = frame;
    }

    void extent(int w, int h) {
        this.width = w;
        this.height = h;
    }

    public VkCommandBuffer cmd() { return cmd; }
    public VulkanContext vulkan() { return ctx; }
    /** The frame number the graph is recording (0, 1, 2, ...). */
    public long frame() { return frame; }
    /** Render area of a graphics pass (its attachments' extent). */
    public int width() { return width; }
    public int height() { return height; }

    public GpuBuffer buffer(BufferHandle h) {
        return (GpuBuffer) physical[h.resource()];
    }

    public GpuImage image(ImageHandle h) {
        return (GpuImage) physical[h.resource()];
    }
}

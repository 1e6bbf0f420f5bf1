package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import org.lwjgl.vulkan.VkCommandBuffer;

/**
 * What a pass's execute step gets: the command buffer and the resources its setup declared, resolved
 * to GPU objects. A handle the pass did not declare is refused: the graph planned barriers only for
 * declared uses, so an undeclared one would be a silent hazard.
 */
public interface PassContext {
    /** {@return the command buffer to record into (the graph has recorded this pass's barriers already)} */
    VkCommandBuffer cmd();

    /** {@return the number of the frame being recorded (0, 1, 2, ...)} */
    long frame();

    /** {@return the render area's width of a graphics pass (its attachments' extent)} */
    int width();

    /** {@return the render area's height of a graphics pass} */
    int height();

    /**
     * {@return the buffer behind it}
     *
     * @param h a buffer handle this pass declared
     * @throws GraphException for a handle this pass did not declare
     */
    GpuBuffer buffer(BufferHandle h);

    /**
     * {@return the image behind it}
     *
     * @param h an image handle this pass declared
     * @throws GraphException for a handle this pass did not declare
     */
    GpuImage image(ImageHandle h);
}

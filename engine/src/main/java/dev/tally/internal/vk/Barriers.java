package dev.tally.internal.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferMemoryBarrier2;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDependencyInfo;
import org.lwjgl.vulkan.VkMemoryBarrier2;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_FAMILY_IGNORED;
import static org.lwjgl.vulkan.VK10.VK_WHOLE_SIZE;
import static org.lwjgl.vulkan.VK13.vkCmdPipelineBarrier2;

/** Synchronization2 barriers for tools that record outside a frame graph (the graph computes its own). */
public final class Barriers {
    private Barriers() {
    }

    /** One buffer barrier covering the whole buffer. */
    public static void buffer(VkCommandBuffer cmd, long buffer, long srcStage, long srcAccess, long dstStage, long dstAccess) {
        try (MemoryStack stack = stackPush()) {
            VkBufferMemoryBarrier2.Buffer b = VkBufferMemoryBarrier2.calloc(1, stack).sType$Default()
                    .srcStageMask(srcStage).srcAccessMask(srcAccess).dstStageMask(dstStage).dstAccessMask(dstAccess)
                    .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                    .buffer(buffer).offset(0).size(VK_WHOLE_SIZE);
            vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pBufferMemoryBarriers(b));
        }
    }

    /** A global memory barrier. */
    public static void memory(VkCommandBuffer cmd, long srcStage, long srcAccess, long dstStage, long dstAccess) {
        try (MemoryStack stack = stackPush()) {
            VkMemoryBarrier2.Buffer b = VkMemoryBarrier2.calloc(1, stack).sType$Default()
                    .srcStageMask(srcStage).srcAccessMask(srcAccess).dstStageMask(dstStage).dstAccessMask(dstAccess);
            vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pMemoryBarriers(b));
        }
    }
}

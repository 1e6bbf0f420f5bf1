package dev.tally.embed;

import dev.tally.internal.vk.ContextOptions;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.concurrent.locks.ReentrantLock;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * A stand-in for an embedding renderer: its own device (with validation), its own command buffers and
 * fences, two frames in flight, its own HDR render targets and its own {@code vkQueueSubmit2}, under a
 * queue lock it shares with Tally.
 */
final class HostRenderer implements AutoCloseable {
    final VulkanContext device;
    final ReentrantLock queueLock = new ReentrantLock();
    private final long[] pools;
    private final VkCommandBuffer[] buffers;
    private final long[] fences;

    HostRenderer(int framesInFlight) {
        device = VulkanContext.create(ContextOptions.headless().withValidation(true).withFramesInFlight(framesInFlight));
        pools = new long[framesInFlight];
        buffers = new VkCommandBuffer[framesInFlight];
        fences = new long[framesInFlight];
        try (MemoryStack stack = stackPush()) {
            for (int i = 0; i < framesInFlight; i++) {
                pools[i] = device.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
                buffers[i] = device.allocateCommandBuffer(pools[i]);
                LongBuffer p = stack.mallocLong(1);
                check(vkCreateFence(device.device(), VkFenceCreateInfo.calloc(stack).sType$Default().flags(VK_FENCE_CREATE_SIGNALED_BIT), null, p),
                        "vkCreateFence");
                fences[i] = p.get(0);
            }
        }
    }

    /** The renderer's own pacing: wait for the slot's fence, reset, begin. */
    VkCommandBuffer begin(long frame) {
        int slot = (int) (frame % pools.length);
        try (MemoryStack stack = stackPush()) {
            check(vkWaitForFences(device.device(), stack.longs(fences[slot]), true, 60_000_000_000L), "vkWaitForFences");
            check(vkResetFences(device.device(), stack.longs(fences[slot])), "vkResetFences");
            check(vkResetCommandPool(device.device(), pools[slot], 0), "vkResetCommandPool");
            check(vkBeginCommandBuffer(buffers[slot], VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
        }
        return buffers[slot];
    }

    /**
     * As {@link #begin}, written by address (no struct wrappers, no stack.longs buffers): the host loop of a test that counts
     * the frame thread's allocations must not make garbage of its own.
     */
    VkCommandBuffer beginByAddress(long frame) {
        int slot = (int) (frame % pools.length);
        try (MemoryStack stack = stackPush()) {
            long fence = stack.nmalloc(8, 8);
            org.lwjgl.system.MemoryUtil.memPutLong(fence, fences[slot]);
            check(nvkWaitForFences(device.device(), 1, fence, VK_TRUE, 60_000_000_000L), "vkWaitForFences");
            check(nvkResetFences(device.device(), 1, fence), "vkResetFences");
            check(vkResetCommandPool(device.device(), pools[slot], 0), "vkResetCommandPool");
            long info = stack.ncalloc(VkCommandBufferBeginInfo.ALIGNOF, 1, VkCommandBufferBeginInfo.SIZEOF);
            VkCommandBufferBeginInfo.nsType(info, VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
            VkCommandBufferBeginInfo.nflags(info, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
            check(nvkBeginCommandBuffer(buffers[slot], info), "vkBeginCommandBuffer");
        }
        return buffers[slot];
    }

    /**
     * As {@link #submit}, garbage-free: the renderer's submit info is {@code kept} (allocated once, outside the frame loop,
     * rewritten each frame) and Tally's hook {@link dev.tally.Frame#signal(VkSubmitInfo2, MemoryStack)} adds its signal.
     */
    void submitByAddress(long frame, VkCommandBuffer cmd, VkSubmitInfo2 kept, dev.tally.Frame tallyFrame) {
        int slot = (int) (frame % pools.length);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        try (MemoryStack stack = stackPush()) {
            long info = kept.address();
            org.lwjgl.system.MemoryUtil.memSet(info, 0, VkSubmitInfo2.SIZEOF);
            VkSubmitInfo2.nsType(info, org.lwjgl.vulkan.VK13.VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
            long cmdInfo = stack.ncalloc(VkCommandBufferSubmitInfo.ALIGNOF, 1, VkCommandBufferSubmitInfo.SIZEOF);
            VkCommandBufferSubmitInfo.nsType(cmdInfo, org.lwjgl.vulkan.VK13.VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
            org.lwjgl.system.MemoryUtil.memPutAddress(cmdInfo + VkCommandBufferSubmitInfo.COMMANDBUFFER, cmd.address());
            VkSubmitInfo2.ncommandBufferInfoCount(info, 1);
            org.lwjgl.system.MemoryUtil.memPutAddress(info + VkSubmitInfo2.PCOMMANDBUFFERINFOS, cmdInfo);
            tallyFrame.signal(kept, stack);
            queueLock.lock();
            try {
                check(org.lwjgl.vulkan.VK13.nvkQueueSubmit2(device.queue(), 1, info, fences[slot]), "vkQueueSubmit2");
            } finally {
                queueLock.unlock();
            }
        }
    }

    /** Clears an HDR target to a grey level as the renderer's own "scene" pass, leaving it in TRANSFER_DST. */
    static void clear(VkCommandBuffer cmd, TrackedImage image, float level, boolean first) {
        try (MemoryStack stack = stackPush()) {
            VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
            if (first) {
                // Never used: to TRANSFER_DST once. Later frames find it there, handed back by Tally's graph.
                VkImageMemoryBarrier2.Buffer b = VkImageMemoryBarrier2.calloc(1, stack).sType$Default()
                        .srcStageMask(VK_PIPELINE_STAGE_2_NONE).dstStageMask(VK_PIPELINE_STAGE_2_CLEAR_BIT).dstAccessMask(VK_ACCESS_2_TRANSFER_WRITE_BIT)
                        .oldLayout(VK_IMAGE_LAYOUT_UNDEFINED).newLayout(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
                        .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(image.handle())
                        .subresourceRange(range);
                vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(b));
            }
            vkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VkClearColorValue.calloc(stack).float32(0, level).float32(1, level).float32(2, level).float32(3, 1), range);
        }
    }

    /** Ends and submits with the renderer's own VkSubmitInfo2; {@code addSignals} lets Tally add its timeline signal. */
    void submit(long frame, VkCommandBuffer cmd, java.util.function.BiConsumer<VkSubmitInfo2, MemoryStack> addSignals) {
        int slot = (int) (frame % pools.length);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        try (MemoryStack stack = stackPush()) {
            VkSubmitInfo2 submit = VkSubmitInfo2.calloc(stack).sType$Default()
                    .pCommandBufferInfos(VkCommandBufferSubmitInfo.calloc(1, stack).sType$Default().commandBuffer(cmd));
            addSignals.accept(submit, stack);
            queueLock.lock();
            try {
                check(vkQueueSubmit2(device.queue(), VkSubmitInfo2.create(submit.address(), 1), fences[slot]), "vkQueueSubmit2");
            } finally {
                queueLock.unlock();
            }
        }
    }

    /**
     * Throws away what was recorded into the slot's command buffer (a frame whose record failed) and submits nothing but
     * the slot's fence, so that the slot's next {@link #begin} finds it signalled.
     */
    void discard(long frame) {
        int slot = (int) (frame % pools.length);
        check(vkResetCommandPool(device.device(), pools[slot], 0), "vkResetCommandPool");
        queueLock.lock();
        try {
            check(vkQueueSubmit2(device.queue(), null, fences[slot]), "vkQueueSubmit2");
        } finally {
            queueLock.unlock();
        }
    }

    /**
     * Waits until the device is idle. The renderer's own submits do not signal {@link VulkanContext}'s
     * timeline, so {@code device.waitIdle()} would not wait for them: objects made on {@code device} are
     * closed only after this.
     */
    void idle() {
        queueLock.lock();
        try {
            check(vkDeviceWaitIdle(device.device()), "vkDeviceWaitIdle");
        } finally {
            queueLock.unlock();
        }
    }

    dev.tally.Tally.Host host() {
        return new dev.tally.Tally.Host(device.instance(), device.physicalDevice(), device.device(), device.queue(), device.queueFamily(),
                device.allocator(), queueLock, device.debugUtils(), device.enabledFeatures());
    }

    @Override
    public void close() {
        idle();
        for (int i = 0; i < pools.length; i++) {
            vkDestroyFence(device.device(), fences[i], null);
            vkDestroyCommandPool(device.device(), pools[i], null);
        }
        device.close();
    }

}

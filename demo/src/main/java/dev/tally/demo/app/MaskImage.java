package dev.tally.demo.app;

import dev.tally.Tally;
import dev.tally.vk.Device;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.function.Consumer;

import static dev.tally.vk.VulkanException.check;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/** The demo's metering mask: weight 1 in the sky's upper half and the centre, 0.1 elsewhere (red channel). */
final class MaskImage {
    private MaskImage() {
    }

    static GpuImage create(Tally tally) {
        int size = 64;
        GpuImage image = tally.createImage("metering.mask", size, size, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        try (GpuBuffer staging = tally.createBuffer("metering.mask.staging", 4L * size * size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD)) {
            ByteBuffer px = MemoryUtil.memByteBuffer(staging.mappedAddress(), 4 * size * size);
            for (int y = 0; y < size; y++) {
                for (int x = 0; x < size; x++) {
                    double dx = (x + 0.5) / size - 0.5, dy = (y + 0.5) / size - 0.5;
                    boolean inside = dx * dx + dy * dy < 0.09;
                    px.put((byte) (inside ? 255 : 26)).put((byte) 0).put((byte) 0).put((byte) 255);
                }
            }
            staging.flush(0, staging.size());
            uploadOnce(tally.device(), cmd -> {
                layout(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, 0,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
                try (MemoryStack stack = MemoryStack.stackPush()) {
                    VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                    region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                    region.imageExtent().set(size, size, 1);
                    vkCmdCopyBufferToImage(cmd, staging.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
                }
                layout(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
            });
        }
        return image;
    }

    /** The mask's sampler: nearest, clamped (the histogram reads it with texelFetch); destroyed by {@link #destroySampler}. */
    static long sampler(Device gpu) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSampler(gpu.device(), VkSamplerCreateInfo.calloc(stack).sType$Default().magFilter(VK_FILTER_NEAREST).minFilter(VK_FILTER_NEAREST)
                    .addressModeU(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).addressModeV(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                    .addressModeW(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).maxLod(0f), null, p), "vkCreateSampler (metering mask)");
            return p.get(0);
        }
    }

    /** Destroys {@code sampler} once the frames that sampled with it are done. */
    static void destroySampler(Device gpu, long sampler) {
        gpu.defer(() -> vkDestroySampler(gpu.device(), sampler, null));
    }

    /**
     * Records with {@code recorder} into a command buffer of its own, submits it on Tally's queue (under its lock)
     * and waits for it: the demo's one upload at start-up, before the first frame.
     */
    private static void uploadOnce(Device gpu, Consumer<VkCommandBuffer> recorder) {
        VkDevice device = gpu.device();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT).queueFamilyIndex(gpu.queueFamily()), null, p), "vkCreateCommandPool (mask upload)");
            long pool = p.get(0);
            long fence = VK_NULL_HANDLE;
            try {
                PointerBuffer pc = stack.mallocPointer(1);
                check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default().commandPool(pool)
                        .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), pc), "vkAllocateCommandBuffers (mask upload)");
                VkCommandBuffer cmd = new VkCommandBuffer(pc.get(0), device);
                check(vkBeginCommandBuffer(cmd, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                        .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer (mask upload)");
                recorder.accept(cmd);
                check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer (mask upload)");
                check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, p), "vkCreateFence (mask upload)");
                fence = p.get(0);
                VkCommandBufferSubmitInfo.Buffer cmds = VkCommandBufferSubmitInfo.calloc(1, stack).sType$Default().commandBuffer(cmd);
                VkSubmitInfo2.Buffer submit = VkSubmitInfo2.calloc(1, stack).sType$Default().pCommandBufferInfos(cmds);
                gpu.queueLock().lock();
                try {
                    check(vkQueueSubmit2(gpu.queue(), submit, fence), "vkQueueSubmit2 (mask upload)");
                } finally {
                    gpu.queueLock().unlock();
                }
                int r = vkWaitForFences(device, p.put(0, fence), true, 10_000_000_000L);
                if (r == VK_TIMEOUT) {
                    throw new VulkanException(r, "vkWaitForFences (mask upload: not done in 10 s)");
                }
                check(r, "vkWaitForFences (mask upload)");
            } finally {
                if (fence != VK_NULL_HANDLE) {
                    vkDestroyFence(device, fence, null);
                }
                vkDestroyCommandPool(device, pool, null);
            }
        }
    }

    private static void layout(VkCommandBuffer cmd, GpuImage image, int from, int to, long srcStage, long srcAccess,
                               long dstStage, long dstAccess) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkImageMemoryBarrier2.Buffer b = VkImageMemoryBarrier2.calloc(1, stack).sType$Default().srcStageMask(srcStage)
                    .srcAccessMask(srcAccess).dstStageMask(dstStage).dstAccessMask(dstAccess).oldLayout(from).newLayout(to)
                    .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(image.handle());
            b.subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
            vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(b));
        }
    }
}

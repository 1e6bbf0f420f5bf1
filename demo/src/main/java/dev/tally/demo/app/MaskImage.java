package dev.tally.demo.app;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkDependencyInfo;
import org.lwjgl.vulkan.VkImageMemoryBarrier2;

import java.nio.ByteBuffer;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/** The demo's metering mask: weight 1 in the sky's upper half and the centre, 0.1 elsewhere (red channel). */
final class MaskImage {
    private MaskImage() {
    }

    static TrackedImage create(VulkanContext ctx) {
        int size = 64;
        TrackedImage image = TrackedImage.create(ctx, "metering.mask", size, size, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        try (TrackedBuffer staging = new TrackedBuffer(ctx, "metering.mask.staging", 4L * size * size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD)) {
            ByteBuffer px = MemoryUtil.memByteBuffer(staging.mappedAddress(), 4 * size * size);
            for (int y = 0; y < size; y++) {
                for (int x = 0; x < size; x++) {
                    double dx = (x + 0.5) / size - 0.5, dy = (y + 0.5) / size - 0.5;
                    boolean inside = dx * dx + dy * dy < 0.09;
                    px.put((byte) (inside ? 255 : 26)).put((byte) 0).put((byte) 0).put((byte) 255);
                }
            }
            staging.flush(0, staging.size());
            ctx.submitAndWait(cmd -> {
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

    private static void layout(org.lwjgl.vulkan.VkCommandBuffer cmd, TrackedImage image, int from, int to, long srcStage, long srcAccess,
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

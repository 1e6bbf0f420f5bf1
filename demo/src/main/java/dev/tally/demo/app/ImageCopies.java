package dev.tally.demo.app;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/** The demo's image-to-buffer copies (screenshots, the filmstrip, graph checks): a whole colour image, tightly packed. */
public final class ImageCopies {
    private ImageCopies() {
    }

    /** Records a copy of all of {@code src} (in TRANSFER_SRC_OPTIMAL, as the pass declared it) into {@code dst}. */
    public static void toBuffer(VkCommandBuffer cmd, GpuImage src, GpuBuffer dst) {
        try (MemoryStack stack = stackPush()) {
            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
            region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
            region.imageExtent().set(src.width(), src.height(), 1);
            vkCmdCopyImageToBuffer(cmd, src.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.handle(), region);
        }
    }
}

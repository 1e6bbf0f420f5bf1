package dev.tally.examples.embed;

import dev.tally.Tally;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.vk.GpuImage;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;

import static dev.tally.examples.embed.Renderer.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * One view of the scene (a player's half of a split screen): the renderer's own RGBA16F render target,
 * drawn each frame, and what Tally adds to it: an auto-exposure and a readback ring that brings back the
 * histogram's total (a pixel counter), the exposure record and the histogram, three frames late.
 */
final class View implements AutoCloseable {
    static final int HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
    /** One sample: the histogram's total (1 float), the exposure record, the 256 bins. */
    static final long READBACK_BYTES = 4 + ExposureShaderLayout.EXPOSURE_BYTES + ExposureShaderLayout.BINS_BYTES;
    private static final int EV_FLOAT = 1 + ExposureShaderLayout.EV;
    private static final int FIRST_BIN_FLOAT = 1 + ExposureShaderLayout.EXPOSURE_FLOATS;

    final String name;
    final int width;
    final int height;
    private final VkDevice device;
    private final long allocator;
    private final long image;
    private final long allocation;
    private final long view;
    /** The render target as Tally's graph sees it (Tally makes its own view; the image stays the renderer's). */
    final GpuImage target;
    final AutoExposure exposure;
    final ReadbackRing readback;
    private Sample last;
    private long samples;

    View(Renderer renderer, Tally tally, String name, int width, int height) {
        this.name = name;
        this.width = width;
        this.height = height;
        this.device = renderer.device();
        this.allocator = renderer.allocator();
        try (MemoryStack stack = stackPush()) {
            VkImageCreateInfo info = VkImageCreateInfo.calloc(stack).sType$Default().imageType(VK_IMAGE_TYPE_2D).format(HDR_FORMAT)
                    .mipLevels(1).arrayLayers(1).samples(VK_SAMPLE_COUNT_1_BIT).tiling(VK_IMAGE_TILING_OPTIMAL)
                    // Drawn by the renderer, read by Tally's histogram as a storage image.
                    .usage(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT)
                    .sharingMode(VK_SHARING_MODE_EXCLUSIVE).initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
            info.extent().set(width, height, 1);
            LongBuffer pImage = stack.mallocLong(1);
            PointerBuffer pAllocation = stack.mallocPointer(1);
            check(vmaCreateImage(allocator, info, VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO), pImage, pAllocation, null),
                    "vmaCreateImage");
            image = pImage.get(0);
            allocation = pAllocation.get(0);
            VkImageViewCreateInfo viewInfo = VkImageViewCreateInfo.calloc(stack).sType$Default().image(image)
                    .viewType(VK_IMAGE_VIEW_TYPE_2D).format(HDR_FORMAT);
            viewInfo.subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
            LongBuffer pView = stack.mallocLong(1);
            check(vkCreateImageView(device, viewInfo, null, pView), "vkCreateImageView");
            view = pView.get(0);
        }
        target = tally.wrapImage(name + ".hdr", image, width, height, HDR_FORMAT,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
        exposure = tally.autoExposure(name);                                // passes left/histogram, left/exposure, ...
        readback = tally.readback(name + "/readback", READBACK_BYTES);      // a ring of readback.slots host-visible buffers
    }

    /**
     * The renderer's own scene pass: a sky whose brightness steps every 10 frames and a bright sun moving
     * across it, drawn with dynamic rendering. Frame 0 takes the image from UNDEFINED; later frames find it
     * where Tally's graph left it (a color attachment, as the import asked).
     */
    void draw(VkCommandBuffer cmd, long frame) {
        try (MemoryStack stack = stackPush()) {
            if (frame == 0) {
                VkImageMemoryBarrier2.Buffer toAttachment = VkImageMemoryBarrier2.calloc(1, stack).sType$Default()
                        .srcStageMask(VK_PIPELINE_STAGE_2_NONE).dstStageMask(VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)
                        .dstAccessMask(VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
                        .oldLayout(VK_IMAGE_LAYOUT_UNDEFINED).newLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
                        .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(image);
                toAttachment.subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
                vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(toAttachment));
            }
            float sky = (float) Math.pow(2, (frame / 10) % 6 - 5);   // 1/32 .. 1: the scene brightens, then cuts back
            VkRenderingAttachmentInfo.Buffer color = VkRenderingAttachmentInfo.calloc(1, stack).sType$Default()
                    .imageView(view).imageLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
                    .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR).storeOp(VK_ATTACHMENT_STORE_OP_STORE);
            color.clearValue().color().float32(0, sky).float32(1, sky).float32(2, sky * 1.2f).float32(3, 1);
            VkRenderingInfo rendering = VkRenderingInfo.calloc(stack).sType$Default().layerCount(1).pColorAttachments(color);
            rendering.renderArea().extent().set(width, height);
            vkCmdBeginRendering(cmd, rendering);
            VkClearAttachment.Buffer sun = VkClearAttachment.calloc(1, stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).colorAttachment(0);
            sun.clearValue().color().float32(0, 16).float32(1, 14).float32(2, 10).float32(3, 1);
            int size = Math.max(1, height / 4);
            VkClearRect.Buffer rect = VkClearRect.calloc(1, stack).baseArrayLayer(0).layerCount(1);
            rect.rect().offset().set((int) (frame * 3 % Math.max(1, width - size)), height / 8);
            rect.rect().extent().set(size, size);
            vkCmdClearAttachments(cmd, sun, rect);
            vkCmdEndRendering(cmd);
        }
    }

    /** A readback sample arrived (at the beginning of a frame): keep it for the report. */
    void received(Sample sample) {
        if (last == null || sample.frame() != last.frame()) {
            samples++;
        }
        last = sample;
    }

    /** How many distinct frames' samples arrived. */
    long samples() { return samples; }
    /** The newest sample, or null before the first. */
    Sample last() { return last; }
    /** The pixel count the GPU's histogram reduction gave, read back. */
    float lastTotal() { return last.floatAt(0); }
    /** The exposure (EV) the GPU adapted to, read back. */
    float lastEv() { return last.floatAt(EV_FLOAT); }

    /** The histogram's total: its 256 bins added up on the CPU, the histogram's own count of the pixels. */
    double lastHistogramTotal() {
        double sum = 0;
        for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
            sum += last.floatAt(FIRST_BIN_FLOAT + i);
        }
        return sum;
    }

    /** Tally's objects first (their GPU resources go when Tally next retires), then the renderer's image. */
    @Override
    public void close() {
        readback.close();
        exposure.close();
        target.close();
    }

    /** The renderer's own image and view; only once the GPU is idle and Tally has let go of it. */
    void destroyImage() {
        vkDestroyImageView(device, view, null);
        vmaDestroyImage(allocator, image, allocation);
    }
}

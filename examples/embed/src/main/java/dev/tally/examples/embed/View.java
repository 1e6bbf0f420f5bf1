package dev.tally.examples.embed;

import dev.tally.Tally;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.BufferHandle;
import dev.tally.readback.Delivery;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Subscription;
import dev.tally.reduce.ReduceStats;
import dev.tally.reduce.StatsNode;
import dev.tally.vk.GpuImage;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;

import static dev.tally.examples.embed.Renderer.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.memPutAddress;
import static org.lwjgl.system.MemoryUtil.memPutFloat;
import static org.lwjgl.system.MemoryUtil.memPutInt;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * One view of the scene (a player's half of a split screen): the renderer's own RGBA16F render target,
 * drawn each frame, and what Tally adds to it: an auto-exposure, a statistics node over the histogram's bins (the
 * fullest and emptiest bin, their mean), and a readback ring that brings back the histogram's total (a pixel
 * counter), the exposure record, the histogram and the bins' statistics, three frames late.
 */
final class View implements AutoCloseable {
    static final int HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
    /** One sample: the histogram's total (1 float), the exposure record, the 256 bins, the bins' statistics record. */
    static final long READBACK_BYTES = 4 + ExposureShaderLayout.EXPOSURE_BYTES + ExposureShaderLayout.BINS_BYTES + ReduceStats.RECORD_BYTES;
    private static final int EV_FLOAT = 1 + ExposureShaderLayout.EV;
    private static final int FIRST_BIN_FLOAT = 1 + ExposureShaderLayout.EXPOSURE_FLOATS;
    private static final int STATS_FLOAT = FIRST_BIN_FLOAT + ExposureShaderLayout.BINS;

    final String name;
    /** The render target's name in Tally's graph, made once (a string built per frame would be garbage). */
    final String hdrName;
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
    /** Count, sum, min, max, mean and variance of the histogram's bins, on the GPU. */
    final StatsNode binStats;
    final ReadbackRing readback;
    /** The newest sample's floats, written by the ring as it delivers (no copy made per sample). */
    private final float[] values = new float[(int) (READBACK_BYTES / 4)];
    private final Subscription subscription;
    private long lastFrame = -1;
    private long lastLag = -1;
    private long samples;
    /** What each frame's capture copies, refilled every frame (no object per region, per frame). */
    private final ReadbackRing.SourceList captured;

    View(Renderer renderer, Tally tally, String name, int width, int height) {
        this.name = name;
        this.hdrName = name + ".hdr";
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
        binStats = tally.statsNode(name + "/bins", ExposureShaderLayout.BINS);   // pass left/bins
        readback = tally.readback(name + "/readback", READBACK_BYTES);      // a ring of readback.slots host-visible buffers
        subscription = readback.onSample(values, this::received);          // delivered at beginFrame, into values
        captured = readback.sourceList();                                  // refilled by capture() each frame
    }

    /** What the readback copies from this frame: the exposure's total, record and bins, and the bins' statistics. */
    ReadbackRing.SourceList capture(AutoExposure.Result r, BufferHandle stats) {
        return captured.clear().buffer(r.total(), 4).buffer(r.exposure(), ExposureShaderLayout.EXPOSURE_BYTES)
                .buffer(r.bins(), ExposureShaderLayout.BINS_BYTES).buffer(stats, ReduceStats.RECORD_BYTES);
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
            // Written by address: LWJGL's struct wrappers (and its accessors for nested structs) are objects, one per
            // call, and a loop that runs every frame should make none; the n* setters take the struct's address.
            long color = stack.ncalloc(VkRenderingAttachmentInfo.ALIGNOF, 1, VkRenderingAttachmentInfo.SIZEOF);
            VkRenderingAttachmentInfo.nsType(color, VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
            VkRenderingAttachmentInfo.nimageView(color, view);
            VkRenderingAttachmentInfo.nimageLayout(color, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            VkRenderingAttachmentInfo.nloadOp(color, VK_ATTACHMENT_LOAD_OP_CLEAR);
            VkRenderingAttachmentInfo.nstoreOp(color, VK_ATTACHMENT_STORE_OP_STORE);
            putColor(color + VkRenderingAttachmentInfo.CLEARVALUE, sky, sky, sky * 1.2f, 1);
            long rendering = stack.ncalloc(VkRenderingInfo.ALIGNOF, 1, VkRenderingInfo.SIZEOF);
            VkRenderingInfo.nsType(rendering, VK_STRUCTURE_TYPE_RENDERING_INFO);
            VkRenderingInfo.nlayerCount(rendering, 1);
            VkRenderingInfo.ncolorAttachmentCount(rendering, 1);
            memPutAddress(rendering + VkRenderingInfo.PCOLORATTACHMENTS, color);
            putRect(rendering + VkRenderingInfo.RENDERAREA, 0, 0, width, height);
            nvkCmdBeginRendering(cmd, rendering);
            long sun = stack.ncalloc(VkClearAttachment.ALIGNOF, 1, VkClearAttachment.SIZEOF);
            VkClearAttachment.naspectMask(sun, VK_IMAGE_ASPECT_COLOR_BIT);
            putColor(sun + VkClearAttachment.CLEARVALUE, 16, 14, 10, 1);
            int size = Math.max(1, height / 4);
            long rect = stack.ncalloc(VkClearRect.ALIGNOF, 1, VkClearRect.SIZEOF);
            VkClearRect.nlayerCount(rect, 1);
            putRect(rect + VkClearRect.RECT, (int) (frame * 3 % Math.max(1, width - size)), height / 8, size, size);
            nvkCmdClearAttachments(cmd, 1, sun, 1, rect);
            vkCmdEndRendering(cmd);
        }
    }

    /** A VkClearColorValue's four floats at {@code address}. */
    private static void putColor(long address, float r, float g, float b, float a) {
        memPutFloat(address, r);
        memPutFloat(address + 4, g);
        memPutFloat(address + 8, b);
        memPutFloat(address + 12, a);
    }

    /** A VkRect2D at {@code address}: its offset, then its extent. */
    private static void putRect(long address, int x, int y, int width, int height) {
        memPutInt(address + VkRect2D.OFFSET + VkOffset2D.X, x);
        memPutInt(address + VkRect2D.OFFSET + VkOffset2D.Y, y);
        memPutInt(address + VkRect2D.EXTENT + VkExtent2D.WIDTH, width);
        memPutInt(address + VkRect2D.EXTENT + VkExtent2D.HEIGHT, height);
    }

    /** A readback sample arrived (at the beginning of a frame, its floats already in {@code values}): count it. */
    private void received(Delivery sample) {
        if (sample.frame() != lastFrame) {
            samples++;
        }
        lastFrame = sample.frame();   // the frame that wrote it
        lastLag = sample.lag();       // frames between writing and delivery: readback.slots, never a wait
    }

    /** How many distinct frames' samples arrived. */
    long samples() { return samples; }
    /** Whether a sample arrived. */
    boolean hasSample() { return lastFrame >= 0; }
    /** The frame that wrote the newest sample. */
    long lastFrame() { return lastFrame; }
    /** How many frames late it arrived. */
    long lastLag() { return lastLag; }
    /** The pixel count the GPU's histogram reduction gave, read back. */
    float lastTotal() { return values[0]; }
    /** The exposure (EV) the GPU adapted to, read back. */
    float lastEv() { return values[EV_FLOAT]; }

    /** The histogram's total: its 256 bins added up on the CPU, the histogram's own count of the pixels. */
    double lastHistogramTotal() {
        double sum = 0;
        for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
            sum += values[FIRST_BIN_FLOAT + i];
        }
        return sum;
    }

    /**
     * Where the bins' statistics the GPU computed differ from the same sample's bins read back, or null: count 256, the
     * sum, the smallest and the largest bin as the CPU finds them (exact: the bins hold whole pixel counts).
     */
    String binStatsMismatch() {
        int at = STATS_FLOAT;
        long count = Float.floatToRawIntBits(values[at + ReduceStats.COUNT_OFFSET / 4]) & 0xffffffffL;
        float sum = values[at + ReduceStats.SUM_OFFSET / 4], min = values[at + ReduceStats.MIN_OFFSET / 4], max = values[at + ReduceStats.MAX_OFFSET / 4];
        double cpuSum = 0;
        float cpuMin = Float.POSITIVE_INFINITY, cpuMax = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
            float b = values[FIRST_BIN_FLOAT + i];
            cpuSum += b;
            cpuMin = Math.min(cpuMin, b);
            cpuMax = Math.max(cpuMax, b);
        }
        if (count == ExposureShaderLayout.BINS && sum == cpuSum && min == cpuMin && max == cpuMax) {
            return null;
        }
        return "bin statistics count " + count + ", sum " + sum + ", min " + min + ", max " + max + "; the bins read back give "
                + ExposureShaderLayout.BINS + ", " + cpuSum + ", " + cpuMin + ", " + cpuMax;
    }

    /** The fullest bin's pixel count, from the GPU's statistics of the bins. */
    float lastFullestBin() { return values[STATS_FLOAT + ReduceStats.MAX_OFFSET / 4]; }

    /** Tally's objects first (their GPU resources go when Tally next retires), then the renderer's image. */
    @Override
    public void close() {
        subscription.close();
        readback.close();
        binStats.close();
        exposure.close();
        target.close();
    }

    /** The renderer's own image and view; only once the GPU is idle and Tally has let go of it. */
    void destroyImage() {
        vkDestroyImageView(device, view, null);
        vmaDestroyImage(allocator, image, allocation);
    }
}

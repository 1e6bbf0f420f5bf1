package dev.tally.embed;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDependencyInfo;
import org.lwjgl.vulkan.VkImageMemoryBarrier2;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Auto-exposure meters what hosts have: an HDR image without STORAGE usage is read through a sampler
 * (texelFetch), one with STORAGE as a storage image, chosen by the usage Tally was told; the counts are
 * the same. An image with neither usage gets one line naming the usage to add.
 */
class SampledHdrExposureTest {
    private static final int W = 37;
    private static final int H = 23;
    private static final int FRAMES = 4;

    private static Config config() {
        return Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
    }

    /** Levels 2^-8 .. 2^8 in a pattern over the image: many bins, exact in f32. */
    private static ByteBuffer pixels() {
        ByteBuffer b = ByteBuffer.allocateDirect(W * H * 16).order(ByteOrder.nativeOrder());
        for (int i = 0; i < W * H; i++) {
            float v = (float) Math.pow(2, (i * 7 % 17) - 8);
            b.putFloat(v).putFloat(v).putFloat(v).putFloat(1);
        }
        return b.flip();
    }

    /** Uploads {@link #pixels()} into {@code image}, leaving it in TRANSFER_DST_OPTIMAL after a transfer write. */
    private static void upload(HostRenderer host, TrackedImage image) {
        try (TrackedBuffer staging = new TrackedBuffer(host.device, "staging", (long) W * H * 16, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD)) {
            staging.write(pixels(), 0);
            host.device.submitAndWait(cmd -> {
                try (MemoryStack stack = stackPush()) {
                    VkImageMemoryBarrier2.Buffer toDst = VkImageMemoryBarrier2.calloc(1, stack).sType$Default()
                            .srcStageMask(VK_PIPELINE_STAGE_2_NONE).dstStageMask(VK_PIPELINE_STAGE_2_COPY_BIT).dstAccessMask(VK_ACCESS_2_TRANSFER_WRITE_BIT)
                            .oldLayout(VK_IMAGE_LAYOUT_UNDEFINED).newLayout(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
                            .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(image.handle())
                            .subresourceRange(r -> r.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1));
                    vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(toDst));
                    VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack)
                            .imageSubresource(s -> s.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1))
                            .imageExtent(e -> e.width(W).height(H).depth(1));
                    vkCmdCopyBufferToImage(cmd, staging.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
                }
            });
        }
    }

    @Test
    void aSampledOnlyImageIsMeteredWithTheSameCountsAsAStorageImage() {
        int[] usages = {VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
        long bytes = 4 + ExposureShaderLayout.BINS_BYTES;
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config(), host.host())) {
            List<TrackedImage> images = new ArrayList<>();
            List<AutoExposure> exposures = new ArrayList<>();
            List<ReadbackRing> rings = new ArrayList<>();
            try {
                for (int v = 0; v < usages.length; v++) {
                    images.add(TrackedImage.create(host.device, "hdr" + v, W, H, VK_FORMAT_R32G32B32A32_SFLOAT, usages[v]));
                    upload(host, images.get(v));
                    exposures.add(tally.autoExposure("view" + v, ExposureSettings.DEFAULTS));
                    rings.add(tally.readback("view" + v + "/readback", bytes));
                }
                float[][] bins = new float[usages.length][];
                float[] totals = new float[usages.length];
                for (long f = 0; f < FRAMES; f++) {
                    VkCommandBuffer cmd = host.begin(f);
                    Frame frame = tally.beginFrame();
                    for (int v = 0; v < usages.length; v++) {
                        Sample s = rings.get(v).latest().orElse(null);
                        if (s != null && s.frame() == 0) {
                            totals[v] = s.floatAt(0);
                            bins[v] = new float[ExposureShaderLayout.BINS];
                            for (int i = 0; i < bins[v].length; i++) {
                                bins[v][i] = s.floatAt(1 + i);
                            }
                        }
                        // The host's upload left the image in TRANSFER_DST; the graph hands it back there each frame.
                        ImageHandle hdr = frame.graph().importImage("hdr" + v, images.get(v), Access.TRANSFER_DST, Access.TRANSFER_DST);
                        AutoExposure.Result r = exposures.get(v).add(frame.graph(), hdr, 1f / 60);
                        rings.get(v).capture(frame.graph(), List.of(ReadbackRing.Region.of(r.total(), 4),
                                ReadbackRing.Region.of(r.bins(), ExposureShaderLayout.BINS_BYTES)));
                    }
                    frame.record(cmd);
                    host.submit(f, cmd, frame::signal);
                }
                assertNotNull(bins[0], "frame 0's storage-image sample arrived");
                assertNotNull(bins[1], "frame 0's sampled-image sample arrived");
                assertEquals((float) W * H, totals[0], "every pixel counted once (storage image)");
                assertEquals((float) W * H, totals[1], "every pixel counted once (sampled image)");
                assertArrayEquals(bins[0], bins[1], "the same counts, bin by bin");
                int used = 0;
                for (float b : bins[1]) {
                    used += b > 0 ? 1 : 0;
                }
                assertTrue(used >= 10, "the pattern spreads over many bins: " + used);
                host.idle();
                assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
            } finally {
                host.idle();
                exposures.forEach(AutoExposure::close);
                rings.forEach(ReadbackRing::close);
                images.forEach(TrackedImage::close);
            }
        }
    }

    @Test
    void anImageWithNeitherSampledNorStorageUsageGetsOneLineNamingTheUsageToAdd() {
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config(), host.host());
             TrackedImage image = TrackedImage.create(host.device, "hdr", W, H, VK_FORMAT_R16G16B16A16_SFLOAT,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
             AutoExposure exposure = tally.autoExposure("view", ExposureSettings.DEFAULTS)) {
            Frame frame = tally.beginFrame();
            ImageHandle hdr = frame.graph().importImage("hdr", image, Access.COLOR_ATTACHMENT, null);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> exposure.add(frame.graph(), hdr, 1f / 60));
            assertTrue(e.getMessage().startsWith("view/histogram: image 'hdr' has neither VK_IMAGE_USAGE_SAMPLED_BIT nor VK_IMAGE_USAGE_STORAGE_BIT"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("add VK_IMAGE_USAGE_SAMPLED_BIT"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            frame.abandon();
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }
}

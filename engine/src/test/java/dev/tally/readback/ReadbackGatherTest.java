package dev.tally.readback;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A capture whose regions allow it is gathered by compute (a compute pass of dispatches, which runs beside the compute
 * passes before it); one with a region that does not (a source without storage use, an image format a shader would not
 * give back exactly) is copied by a transfer pass. Both hand out the same sample: a buffer region's words, then an image
 * texel in the image's own bytes (the half floats' bits, worked by hand) and as four floats, whether the sources come as a
 * list of records or in a source list the caller refills. Lavapipe, validation and synchronization validation on.
 */
class ReadbackGatherTest {
    /** Exact in half floats: 0.5 = 0x3800, 2.25 = 0x4080, -3 = 0xC200, 1 = 0x3C00. */
    private static final float[] TEXEL = {0.5f, 2.25f, -3f, 1f};
    private static final int[] HALF_WORDS = {0x40803800, 0x3C00C200};
    private static final int STORAGE = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

    @Test
    void storageSourcesAndAHalfFloatImageAreGatheredByCompute() {
        check(STORAGE, VK_FORMAT_R16G16B16A16_SFLOAT, TEXEL, HALF_WORDS, "compute");
    }

    @Test
    void aSourceWithoutStorageUseIsCopied() {
        check(VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_R16G16B16A16_SFLOAT, TEXEL, HALF_WORDS, "transfer");
    }

    @Test
    void aPackedFloatImageIsGatheredIntoItsOwnBits() {
        // B10G11R11: 0.5 = exponent 14, mantissa 0; 2.25 = exponent 16, mantissa 8 of 64; 3 = exponent 16, mantissa 16 of 32
        // (a 10-bit channel). Alpha reads 1.
        int word = 14 << 6 | (16 << 6 | 8) << 11 | (16 << 5 | 16) << 22;
        check(STORAGE, VK_FORMAT_B10G11R11_UFLOAT_PACK32, new float[]{0.5f, 2.25f, 3f, 1f}, new int[]{word}, "compute");
        // Small values, denormals among them (whatever the clear stored of them): the gathered bits are the copied ones.
        float[] small = {3 * 0x1p-20f, 0x1p-15f, 5 * 0x1p-19f, 1f};
        int[] copied = run(VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_B10G11R11_UFLOAT_PACK32, small, "transfer");
        assertArrayEquals(copied, run(STORAGE, VK_FORMAT_B10G11R11_UFLOAT_PACK32, small, "compute"));
    }

    @Test
    void anImageOfAnotherFormatIsCopied() {
        // RGBA8: only the float formats are gathered.
        check(STORAGE, VK_FORMAT_R8G8B8A8_UNORM, new float[]{0f, 1f, 51 / 255f, 1f}, new int[]{0xFF33FF00}, "transfer");
    }

    private static void check(int bufferUsage, int imageFormat, float[] texel, int[] texelWords, String passKind) {
        check(sample(bufferUsage, imageFormat, texel, passKind, false), texel, texelWords);
        check(sample(bufferUsage, imageFormat, texel, passKind, true), texel, texelWords);
    }

    private static void check(Sample s, float[] texel, int[] texelWords) {
        for (int w = 0; w < texelWords.length; w++) {
            assertEquals(Integer.toHexString(texelWords[w]), Integer.toHexString(s.intAt(4 + w)), "word " + w + " of the texel's bytes");
        }
        for (int c = 0; c < 4; c++) {
            assertEquals(texel[c], s.value(4 + c), "channel " + c + " of the texel, as a float");
        }
    }

    /** The texel's word (one: B10G11R11) as the capture brought it back after clearing the image to {@code clear}. */
    private static int[] run(int bufferUsage, int imageFormat, float[] clear, String passKind) {
        return new int[]{sample(bufferUsage, imageFormat, clear, passKind, false).intAt(4)};
    }

    /**
     * Frames of a capture of floats 3..6 of a buffer and texel (1, 2) of an image cleared to {@code texel}, handed over as a
     * list of records or ({@code sourceList}) in a source list refilled each frame: the last sample.
     */
    private static Sample sample(int bufferUsage, int imageFormat, float[] texel, String passKind, boolean sourceList) {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of());
             GpuBuffer values = CountingFloats.create(tally, bufferUsage);
             GpuImage image = tally.createImage("picture", 4, 4, imageFormat,
                     VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
             ReadbackRing ring = tally.readback("ring", 64);
             FrameCommands commands = tally.frameCommands()) {
            ReadbackRing.SourceList sources = ring.sourceList();
            int frames = 6;
            for (int f = 0; f < frames; f++) {
                Frame frame = tally.beginFrame();
                FrameGraph g = frame.graph();
                BufferHandle buffer = g.importBuffer("values", values, null);
                ImageHandle picture = g.importImage("picture", image, null);   // only the graph touches it: from where the last frame left it
                ImageHandle cleared = g.addPass("clear", PassKind.TRANSFER, b -> b.write(picture, Access.TRANSFER_DST), (h, c) -> clear(c.cmd(), c.image(h), texel));
                if (sourceList) {
                    ring.capture(g, sources.clear().buffer(buffer, 8, 16).image(cleared, 1, 2, 1, 1));
                } else {
                    ring.capture(g, List.of(new ReadbackRing.Region(buffer, 8, 16), ReadbackRing.ImageRegion.texel(cleared, 1, 2)));
                }
                VkCommandBuffer cmd = commands.begin(frame);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
                if (f == 0) {
                    assertTrue(tally.lastGraphDot().contains("label=\"ring\\n" + passKind), tally.lastGraphDot());
                }
            }
            tally.device().waitIdle();
            Sample s = ring.latest().orElseThrow(() -> new AssertionError("no sample after " + frames + " frames"));
            for (int i = 0; i < 4; i++) {
                assertEquals(3 + i, s.floatAt(i), "word " + i + " of the buffer region (floats 3..6)");
            }
            assertEquals(0, tally.diagnostics().validationMessages());
            return s;
        }
    }

    private static void clear(VkCommandBuffer cmd, GpuImage image, float[] rgba) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkClearColorValue color = VkClearColorValue.calloc(stack);
            for (int i = 0; i < 4; i++) {
                color.float32(i, rgba[i]);
            }
            vkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color,
                    VkImageSubresourceRange.calloc(1, stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1));
        }
    }
}

package dev.tally.hud;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The fused "tonemap+hud" pass stores exactly the bytes of the tonemap pass followed by the compute
 * HUD: text, panels, histogram bars and markers, grid lines and both plot lines over a noisy HDR image,
 * at sizes that are not multiples of the 16 x 16 tile nor of the tonemap's 16 x 64 workgroup.
 */
class TonemapHudFusionTest extends GpuTestBase {
    private static final float MIN_EV = -10, MAX_EV = 20;
    private static final int FRAMES = 40;
    private static final int STORAGE = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

    private enum Mode { TONEMAP_ONLY, TWO_PASSES, FUSED }

    @ParameterizedTest(name = "{0}x{1}, {2} rows per invocation")
    @CsvSource({"1283, 721, 4", "640, 360, 4", "301, 197, 8", "517, 263, 1"})
    void fusedPassStoresTheBytesOfTonemapThenHud(int w, int h, int rows) {
        byte[] plain = render(w, h, rows, Mode.TONEMAP_ONLY);
        byte[] pair = render(w, h, rows, Mode.TWO_PASSES);
        byte[] fused = render(w, h, rows, Mode.FUSED);
        int drawn = 0;
        for (int i = 0; i < pair.length; i++) {
            drawn += pair[i] != plain[i] ? 1 : 0;
        }
        assertTrue(drawn > w * h / 20, "the HUD changed " + drawn + " bytes of the tonemapped image: too few to compare");
        for (int i = 0; i < pair.length; i++) {
            if (fused[i] != pair[i]) {
                int p = i / 4;
                fail("byte " + i + " (pixel " + p % w + "," + p / w + " channel " + i % 4 + "): fused " + (fused[i] & 0xff) + " vs tonemap then hud "
                        + (pair[i] & 0xff) + " (tonemap alone " + (plain[i] & 0xff) + ")");
            }
        }
    }

    @Test
    void fusesOnlyWhereBothRunInCompute() {
        var ctx = runtime.context();
        try (Tonemapper tonemap = new Tonemapper(ctx, runtime.compiler(), runtime.pipelineCache());
             HudOverlay hud = new HudOverlay(ctx, runtime.compiler(), runtime.pipelineCache(), HudOverlay.DEFAULT_TEXT_FRACTION)) {
            assertTrue(hud.fusesWith(tonemap, new ImageDesc(64, 64, VK_FORMAT_R8G8B8A8_UNORM, STORAGE)), "RGBA8 storage target");
            assertFalse(hud.fusesWith(tonemap, new ImageDesc(64, 64, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)),
                    "no STORAGE usage: two graphics passes");
            assertFalse(hud.fusesWith(tonemap, new ImageDesc(64, 64, VK_FORMAT_R16G16B16A16_SFLOAT, STORAGE)),
                    "RGBA16F: the tonemap runs in compute, the HUD does not");
        }
    }

    /** The last of {@link #FRAMES} frames: the tonemap of a noisy HDR image, with the HUD over it as asked. */
    private byte[] render(int w, int h, int rows, Mode mode) {
        var ctx = runtime.context();
        try (FrameCommands loop = new FrameCommands(runtime);
             Tonemapper tonemap = new Tonemapper(ctx, runtime.compiler(), runtime.pipelineCache(), rows);
             HudOverlay hud = new HudOverlay(ctx, runtime.compiler(), runtime.pipelineCache(), HudOverlay.DEFAULT_TEXT_FRACTION);
             ExposurePlot history = new ExposurePlot(ctx, runtime.compiler(), runtime.pipelineCache());
             GpuBuffer pixels = new GpuBuffer(ctx, "test.hdr", 16L * w * h, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             GpuBuffer normalized = new GpuBuffer(ctx, "test.normalized", ExposureShaderLayout.NORMALIZED_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             GpuBuffer exposure = new GpuBuffer(ctx, "test.exposure", ExposureShaderLayout.EXPOSURE_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             GpuBuffer out = new GpuBuffer(ctx, "test.ldr", 4L * w * h, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            SplittableRandom r = new SplittableRandom(7);
            for (int i = 0; i < 4 * w * h; i++) {   // log-uniform over 2^-10..2^8, a few NaN and negative channels
                int kind = r.nextInt(200);
                float v = kind == 0 ? Float.NaN : kind == 1 ? -1f : (float) Math.pow(2, r.nextDouble(-10, 8));
                MemoryUtil.memPutFloat(pixels.mappedAddress() + 4L * i, v);
            }
            pixels.flush(0, pixels.size());
            for (int b = 0; b < 256; b++) {   // bars of every height, some over the 10 % cap
                MemoryUtil.memPutFloat(normalized.mappedAddress() + 4L * b, (float) (Math.pow(r.nextDouble(), 6) * 0.15));
            }
            normalized.flush(0, normalized.size());
            List<String> lines = List.of("Tally HUD | tonemap+hud", "fps 123.4  frame 7.89 ms", "EV +3.25 (target +5.50)",
                    "gjpqy descenders, {[()]} | @#$%&*", "histogram 31.2 us  reduce 4.7 us");
            for (int f = 0; f < FRAMES; f++) {
                float[] rec = new float[ExposureShaderLayout.EXPOSURE_FLOATS];
                rec[ExposureShaderLayout.MULTIPLIER] = 0.37f;
                rec[ExposureShaderLayout.EV] = -4 + 0.37f * f;
                rec[ExposureShaderLayout.TARGET_EV] = 14 - 0.21f * f + (f % 3);
                rec[ExposureShaderLayout.VALID] = 1;
                rec[ExposureShaderLayout.LOW_EV] = -2.3f;
                rec[ExposureShaderLayout.HIGH_EV] = 11.7f;
                MemoryUtil.memByteBuffer(exposure.mappedAddress(), (int) exposure.size()).asFloatBuffer().put(0, rec);
                exposure.flush(0, exposure.size());
                Frame frame = runtime.beginFrame();
                VkCommandBuffer cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                BufferHandle src = g.importBuffer("hdr.upload", pixels, null);
                record Upload(BufferHandle src, ImageHandle dst) {
                }
                ImageHandle hdr = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                        b.write(b.create("hdr", new ImageDesc(w, h, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT
                                | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST)),
                        (io, c) -> copy(c.cmd(), c.buffer(io.src()).handle(), c.image(io.dst()).handle(), true, w, h)).dst();
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                ImageHandle target = g.createImage("ldr", new ImageDesc(w, h, VK_FORMAT_R8G8B8A8_UNORM, STORAGE));
                ExposurePlot.View view = history.add(g, exp, 0.35f * f);   // 14 s: the oldest segments clipped at the window
                HudOverlay.HistogramView hv = new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null), exp,
                        MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV));
                ImageHandle drawn = switch (mode) {
                    case TONEMAP_ONLY -> tonemap.add(g, hdr, exp, target);
                    case TWO_PASSES -> hud.add(g, tonemap.add(g, hdr, exp, target), lines, hv, view);
                    case FUSED -> hud.addWithTonemap(g, "tonemap+hud", tonemap, hdr, target, lines, hv, view);
                };
                BufferHandle dst = g.importBuffer("ldr.readback", out, Access.HOST_READ);
                record Read(ImageHandle src, BufferHandle dst) {
                }
                g.addPass("read", PassKind.TRANSFER, b -> {
                    b.sideEffect();
                    return new Read(b.read(drawn, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
                }, (io, c) -> copy(c.cmd(), c.buffer(io.dst()).handle(), c.image(io.src()).handle(), false, w, h));
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
                ctx.waitIdle();   // the host rewrites the exposure record before the next frame
            }
            out.invalidate(0, out.size());
            byte[] bytes = new byte[(int) out.size()];
            MemoryUtil.memByteBuffer(out.mappedAddress(), bytes.length).get(bytes);
            return bytes;
        }
    }

    private static void copy(VkCommandBuffer cmd, long buffer, long image, boolean toImage, int w, int h) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
            region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
            region.imageExtent().set(w, h, 1);
            if (toImage) {
                vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
            } else {
                vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, region);
            }
        }
    }
}

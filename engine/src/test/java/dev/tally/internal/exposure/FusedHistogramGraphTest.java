package dev.tally.internal.exposure;

import dev.tally.exposure.AutoExposure;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The engine's histogram pass (resolve fused into its last workgroup) through the frame graph: the
 * bins of an RGBA16F image equal the CPU model's bin for bin, their total is width x height, and a
 * second frame with a different image gives its own histogram (the last workgroup left the
 * accumulator and the ticket at zero).
 */
class FusedHistogramGraphTest extends GpuTestBase {

    /** Positive normal half floats spread over many bins, with a few zeros (bin 0). */
    private static short[] randomHalves(int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        short[] h = new short[count];
        for (int i = 0; i < count; i++) {
            int exponent = 1 + r.nextInt(30);   // 2^-14 .. 2^15
            h[i] = r.nextInt(50) == 0 ? 0 : (short) ((exponent << 10) | r.nextInt(1024));
        }
        return h;
    }

    private static float halfToFloat(short bits) {
        int exponent = (bits >> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0 && mantissa == 0) {
            return 0f;
        }
        return Math.scalb(1f + mantissa / 1024f, exponent - 15);   // normal halves only (randomHalves)
    }

    @ParameterizedTest
    @CsvSource({"300, 170, 0", "64, 64, 4", "1000, 9, 1", "17, 700, 2", "100, 130, 6", "40, 600, 36"})
    void binsMatchTheModelAndSumToThePixelCount(int w, int h, int rows) {
        var ctx = Engine.of(runtime).context();
        try (
             FrameCommands loop = runtime.frameCommands();
             AutoExposure exposure = new AutoExposureNode(Engine.of(runtime).graphs(), Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), Engine.of(runtime).reducer(), "",
                     ExposureSettings.DEFAULTS, rows);
             TrackedBuffer pixels = new TrackedBuffer(ctx, "test.pixels", 8L * w * h, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             TrackedBuffer bins = new TrackedBuffer(ctx, "test.bins", ExposureShaderLayout.BINS_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.READBACK)) {
            for (int frame = 0; frame < 2; frame++) {
                short[] halves = randomHalves(4 * w * h, 1000L * w + h + frame);
                float[] rgba = new float[halves.length];
                for (int i = 0; i < halves.length; i++) {
                    rgba[i] = halfToFloat(halves[i]);
                    MemoryUtil.memPutShort(pixels.mappedAddress() + 2L * i, halves[i]);
                }
                pixels.flush(0, pixels.size());
                float[] expected = ExposureModel.histogram(rgba, w, h, Metering.UNIFORM, null, ExposureSettings.DEFAULTS);
                float[] got = frame(loop, exposure, pixels, bins, w, h, VK_FORMAT_R16G16B16A16_SFLOAT);
                assertArrayEquals(expected, got, "frame " + frame + ": bins equal the model's");
                double total = 0;
                for (float b : got) {
                    total += b;
                }
                assertEquals((double) w * h, total, "frame " + frame + ": every pixel counted once");
            }
        }
    }

    /**
     * The pass picks its pipeline by the image's format: a B10G11R11 image (unsigned 11/11/10-bit floats,
     * 4 bytes a pixel) gives the model's bins of the values it holds; a format the histogram does not read is
     * one line naming the pass and the formats it reads, before anything is recorded.
     */
    @org.junit.jupiter.api.Test
    void aPackedB10G11R11ImageGivesTheModelsBinsAndAnUnreadFormatIsNamed() {
        int w = 203, h = 77;
        var ctx = Engine.of(runtime).context();
        try (FrameCommands loop = runtime.frameCommands();
             AutoExposure exposure = new AutoExposureNode(Engine.of(runtime).graphs(), Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), Engine.of(runtime).reducer(), "",
                     ExposureSettings.DEFAULTS, 0);
             TrackedBuffer pixels = new TrackedBuffer(ctx, "test.pixels", 4L * w * h, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             TrackedBuffer bins = new TrackedBuffer(ctx, "test.bins", ExposureShaderLayout.BINS_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.READBACK)) {
            SplittableRandom r = new SplittableRandom(5);
            float[] rgba = new float[4 * w * h];
            for (int i = 0; i < w * h; i++) {
                // Normal values only (exponents 1..30): R and G 6 mantissa bits, B 5; 1 pixel in 40 black.
                boolean black = r.nextInt(40) == 0;
                int red = black ? 0 : (1 + r.nextInt(30)) << 6 | r.nextInt(64);
                int green = black ? 0 : (1 + r.nextInt(30)) << 6 | r.nextInt(64);
                int blue = black ? 0 : (1 + r.nextInt(30)) << 5 | r.nextInt(32);
                MemoryUtil.memPutInt(pixels.mappedAddress() + 4L * i, red | green << 11 | blue << 22);
                rgba[4 * i] = ExposureGpuTest.smallFloatToFloat(red, 6);
                rgba[4 * i + 1] = ExposureGpuTest.smallFloatToFloat(green, 6);
                rgba[4 * i + 2] = ExposureGpuTest.smallFloatToFloat(blue, 5);
                rgba[4 * i + 3] = 1f;
            }
            pixels.flush(0, pixels.size());
            float[] expected = ExposureModel.histogram(rgba, w, h, Metering.UNIFORM, null, ExposureSettings.DEFAULTS);
            float[] got = frame(loop, exposure, pixels, bins, w, h, VK_FORMAT_B10G11R11_UFLOAT_PACK32);
            assertArrayEquals(expected, got, "B10G11R11: bins equal the model's");

            Frame frame = runtime.beginFrame();
            FrameGraph g = frame.graph();
            ImageHandle ldr = g.addPass("ldr", PassKind.COMPUTE, b -> b.write(b.create("ldr", new ImageDesc(w, h, VK_FORMAT_R8G8B8A8_UNORM,
                    VK_IMAGE_USAGE_STORAGE_BIT)), Access.COMPUTE_WRITE), (io, c) -> { });
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> exposure.add(g, ldr, 1f / 60));
            frame.abandon();
            assertTrue(e.getMessage().startsWith("histogram: the HDR image's format"), e.getMessage());
            assertTrue(e.getMessage().contains("RGBA16F, RGBA32F, B10G11R11") && !e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /**
     * The exposure pass takes each frame's dt and the node's settings as they are then: one node over a flat scene that
     * turns 3 EV brighter adapts more than eight times as far in a frame of half a second as in one of 1/60 s (its speeds
     * are EV per second), and a compensation raised by 1 EV lowers the next frame's target by 1 EV.
     */
    @org.junit.jupiter.api.Test
    void theExposurePassTakesEachFramesDtAndSettings() {
        int w = 64, h = 64;
        var ctx = Engine.of(runtime).context();
        ExposureSettings s = ExposureSettings.DEFAULTS.withStability(0f, 0f);   // no dead band, no histogram filter: every frame adapts
        try (FrameCommands loop = runtime.frameCommands();
             AutoExposure exposure = new AutoExposureNode(Engine.of(runtime).graphs(), Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(),
                     Engine.of(runtime).reducer(), "", s, 0);
             TrackedBuffer pixels = new TrackedBuffer(ctx, "test.pixels", 16L * w * h, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             TrackedBuffer record = new TrackedBuffer(ctx, "test.record", ExposureShaderLayout.EXPOSURE_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.READBACK)) {
            fill(pixels, w * h, 0.18f);
            run(loop, exposure, pixels, record, w, h, VK_FORMAT_R32G32B32A32_SFLOAT, 1f / 60, false);   // the first frame snaps
            fill(pixels, w * h, 8 * 0.18f);
            float ev = Float.NaN, smallStep = Float.NaN;
            for (int f = 0; f < 4; f++) {
                float[] r = run(loop, exposure, pixels, record, w, h, VK_FORMAT_R32G32B32A32_SFLOAT, 1f / 60, false);
                smallStep = Math.abs(r[ExposureShaderLayout.EV] - ev);
                ev = r[ExposureShaderLayout.EV];
            }
            float[] big = run(loop, exposure, pixels, record, w, h, VK_FORMAT_R32G32B32A32_SFLOAT, 0.5f, false);
            float bigStep = Math.abs(big[ExposureShaderLayout.EV] - ev);
            assertTrue(smallStep > 0 && bigStep > 8 * smallStep, "a 0.5 s frame moved the EV " + bigStep + ", a 1/60 s one " + smallStep);
            exposure.settings(s.withCompensation(s.compensation() + 1f));
            float[] compensated = run(loop, exposure, pixels, record, w, h, VK_FORMAT_R32G32B32A32_SFLOAT, 0.5f, false);
            assertEquals(big[ExposureShaderLayout.TARGET_EV] - 1f, compensated[ExposureShaderLayout.TARGET_EV], 1e-3f,
                    "a compensation raised by 1 EV lowers the target by 1 EV");
        }
    }

    private static void fill(TrackedBuffer pixels, int count, float value) {
        for (int i = 0; i < 4 * count; i++) {
            MemoryUtil.memPutFloat(pixels.mappedAddress() + 4L * i, i % 4 == 3 ? 1f : value);
        }
        pixels.flush(0, pixels.size());
    }

    private float[] frame(FrameCommands loop, AutoExposure exposure, TrackedBuffer pixels, TrackedBuffer bins, int w, int h, int format) {
        return run(loop, exposure, pixels, bins, w, h, format, 1f / 60, true);
    }

    /** One frame of {@code exposure} over the image in {@code pixels}: its bins ({@code bins} true) or its exposure record, read back. */
    private float[] run(FrameCommands loop, AutoExposure exposure, TrackedBuffer pixels, TrackedBuffer out, int w, int h, int format, float dt,
                        boolean bins) {
        long bytes = bins ? ExposureShaderLayout.BINS_BYTES : ExposureShaderLayout.EXPOSURE_BYTES;
        Frame frame = runtime.beginFrame();
        var cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        BufferHandle src = g.importBuffer("pixels", pixels, null);
        record Upload(BufferHandle src, ImageHandle dst) {
        }
        ImageHandle hdr = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                b.write(b.create("hdr", new ImageDesc(w, h, format, VK_IMAGE_USAGE_STORAGE_BIT
                        | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST)), (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                region.imageExtent().set(w, h, 1);
                vkCmdCopyBufferToImage(c.cmd(), c.buffer(io.src()).handle(), c.image(io.dst()).handle(),
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
            }
        }).dst();
        AutoExposure.Result r = exposure.add(g, hdr, dt);
        BufferHandle readback = g.importBuffer("readback", out, Access.HOST_READ);
        record Copy(BufferHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Copy(b.read(bins ? r.bins() : r.exposure(), Access.TRANSFER_SRC),
                b.write(readback, Access.TRANSFER_DST)), (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdCopyBuffer(c.cmd(), c.buffer(io.src()).handle(), c.buffer(io.dst()).handle(), VkBufferCopy.calloc(1, stack).size(bytes));
            }
        });
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        Engine.of(runtime).context().waitIdle();
        out.invalidate(0, out.size());
        float[] got = new float[(int) (bytes / 4)];
        for (int i = 0; i < got.length; i++) {
            got[i] = MemoryUtil.memGetFloat(out.mappedAddress() + 4L * i);
        }
        return got;
    }
}

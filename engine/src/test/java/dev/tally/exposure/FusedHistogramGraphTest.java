package dev.tally.exposure;

import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.vk.GpuBuffer;
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
        var ctx = runtime.context();
        try (
             FrameCommands loop = new FrameCommands(runtime);
             AutoExposure exposure = new AutoExposure(runtime.graphs(), runtime.compiler(), runtime.pipelineCache(), runtime.reducer(), "",
                     ExposureSettings.DEFAULTS, rows);
             GpuBuffer pixels = new GpuBuffer(ctx, "test.pixels", 8L * w * h, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             GpuBuffer bins = new GpuBuffer(ctx, "test.bins", ExposureShaderLayout.BINS_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
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
                float[] got = frame(loop, exposure, pixels, bins, w, h);
                assertArrayEquals(expected, got, "frame " + frame + ": bins equal the model's");
                double total = 0;
                for (float b : got) {
                    total += b;
                }
                assertEquals((double) w * h, total, "frame " + frame + ": every pixel counted once");
            }
        }
    }

    private float[] frame(FrameCommands loop, AutoExposure exposure, GpuBuffer pixels, GpuBuffer bins, int w, int h) {
        Frame frame = runtime.beginFrame();
        var cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        BufferHandle src = g.importBuffer("pixels", pixels, null);
        record Upload(BufferHandle src, ImageHandle dst) {
        }
        ImageHandle hdr = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                b.write(b.create("hdr", new ImageDesc(w, h, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT
                        | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST)), (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                region.imageExtent().set(w, h, 1);
                vkCmdCopyBufferToImage(c.cmd(), c.buffer(io.src()).handle(), c.image(io.dst()).handle(),
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
            }
        }).dst();
        AutoExposure.Result r = exposure.add(g, hdr, 1f / 60);
        BufferHandle out = g.importBuffer("bins.readback", bins, Access.HOST_READ);
        record Copy(BufferHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Copy(b.read(r.bins(), Access.TRANSFER_SRC), b.write(out, Access.TRANSFER_DST)), (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdCopyBuffer(c.cmd(), c.buffer(io.src()).handle(), c.buffer(io.dst()).handle(),
                        VkBufferCopy.calloc(1, stack).size(ExposureShaderLayout.BINS_BYTES));
            }
        });
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        runtime.context().waitIdle();
        bins.invalidate(0, bins.size());
        float[] got = new float[ExposureShaderLayout.BINS];
        for (int i = 0; i < got.length; i++) {
            got[i] = MemoryUtil.memGetFloat(bins.mappedAddress() + 4L * i);
        }
        return got;
    }
}

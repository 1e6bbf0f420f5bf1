package dev.tally.exposure;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The compute tonemap reading RGBA16F texels from a storage buffer (two pixels per load) stores exactly what it stores
 * reading the same texels from an RGBA16F image: byte for byte, every pixel written.
 */
class TonemapBufferInputTest extends GpuTestBase {
    private static final int W = 206, H = 61;   // even width (the buffer path's pairs), not multiples of the tile

    @Test
    void bufferInputStoresWhatTheImageInputStores() {
        var ctx = runtime.context();
        try (Tonemapper tonemap = new Tonemapper(ctx, runtime.compiler(), runtime.pipelineCache());
             FrameCommands loop = new FrameCommands(runtime);
             GpuBuffer texels = new GpuBuffer(ctx, "test.texels", 8L * W * H, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                     MemoryKind.UPLOAD);
             GpuBuffer exposure = new GpuBuffer(ctx, "test.exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             GpuBuffer out = new GpuBuffer(ctx, "test.ldr", 4L * W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            SplittableRandom r = new SplittableRandom(11);
            for (int i = 0; i < 4 * W * H; i++) {
                // Any half: normals, subnormals, zeros, both signs, infinities and NaNs.
                MemoryUtil.memPutShort(texels.mappedAddress() + 2L * i, (short) r.nextInt(1 << 16));
            }
            texels.flush(0, texels.size());
            MemoryUtil.memPutFloat(exposure.mappedAddress() + 4L * ExposureShaderLayout.MULTIPLIER, 0.37f);
            exposure.flush(0, exposure.size());
            byte[] fromImage = render(loop, tonemap, texels, exposure, out, false);
            byte[] fromBuffer = render(loop, tonemap, texels, exposure, out, true);
            for (int i = 0; i < fromImage.length; i++) {
                assertEquals(fromImage[i], fromBuffer[i], "byte " + i + " (pixel " + (i / 4 % W) + ", " + (i / 4 / W) + ")");
            }
            int distinct = (int) java.util.stream.IntStream.range(0, fromImage.length / 4).map(p -> fromImage[4 * p] & 0xff).distinct().count();
            assertTrue(distinct > 100, "a varied image, not a blank one: " + distinct + " red values");
        }
    }

    @Test
    void bufferInputRefusesAnOddWidthAndAShortBuffer() {
        var ctx = runtime.context();
        try (Tonemapper tonemap = new Tonemapper(ctx, runtime.compiler(), runtime.pipelineCache());
             GpuBuffer texels = new GpuBuffer(ctx, "test.texels", 8L * W * H - 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            FrameGraph g = runtime.beginFrame().graph();
            BufferHandle in = g.importBuffer("texels", texels, null);
            BufferHandle exp = g.importBuffer("exposure", texels, null);
            int usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
            var odd = assertThrows(IllegalArgumentException.class,
                    () -> tonemap.add(g, "t", in, exp, g.createImage("odd", new ImageDesc(W - 1, H, VK_FORMAT_R8G8B8A8_UNORM, usage))));
            assertTrue(odd.getMessage().contains("even width"), odd.getMessage());
            var small = assertThrows(IllegalArgumentException.class,
                    () -> tonemap.add(g, "t", in, exp, g.createImage("ldr", new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, usage))));
            assertTrue(small.getMessage().contains("too small"), small.getMessage());
        }
    }

    private byte[] render(FrameCommands loop, Tonemapper tonemap, GpuBuffer texels, GpuBuffer exposure, GpuBuffer out, boolean bufferInput) {
        MemoryUtil.memSet(out.mappedAddress(), 0x55, out.size());   // poison: every pixel must be written
        out.flush(0, out.size());
        Frame frame = runtime.beginFrame();
        var cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        BufferHandle src = g.importBuffer("hdr.texels", texels, null);
        BufferHandle exp = g.importBuffer("exposure", exposure, null);
        ImageHandle target = g.createImage("ldr", new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
        ImageHandle ldr;
        if (bufferInput) {
            ldr = tonemap.add(g, "tonemap", src, exp, target);
        } else {
            record Upload(BufferHandle src, ImageHandle dst) {
            }
            ImageHandle hdr = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                    b.write(b.create("hdr", new ImageDesc(W, H, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT
                            | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST)), (io, c) -> copy(c.cmd(), c.buffer(io.src()).handle(),
                    c.image(io.dst()).handle(), true)).dst();
            ldr = tonemap.add(g, hdr, exp, target);
        }
        BufferHandle dst = g.importBuffer("ldr.readback", out, Access.HOST_READ);
        record Read(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Read(b.read(ldr, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST)),
                (io, c) -> copy(c.cmd(), c.buffer(io.dst()).handle(), c.image(io.src()).handle(), false));
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        runtime.context().waitIdle();
        out.invalidate(0, out.size());
        byte[] bytes = new byte[(int) out.size()];
        MemoryUtil.memByteBuffer(out.mappedAddress(), bytes.length).get(bytes);
        return bytes;
    }

    private static void copy(org.lwjgl.vulkan.VkCommandBuffer cmd, long buffer, long image, boolean toImage) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
            region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
            region.imageExtent().set(W, H, 1);
            if (toImage) {
                vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
            } else {
                vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, region);
            }
        }
    }
}

package dev.tally.internal.exposure;

import dev.tally.exposure.Tonemapper;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.ExposureShaderLayout;

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
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/** The compute tonemap stores what the fragment tonemap stores (within one 8-bit step), pixel for pixel. */
class TonemapComputeTest extends GpuTestBase {
    private static final int W = 203, H = 61;   // not multiples of the 16 x 16 workgroup

    @Test
    void computeAndFragmentPathsAgreeWithinRounding() {
        var ctx = Engine.of(runtime).context();
        try (TonemapperNode tonemap = new TonemapperNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache());
             FrameCommands loop = runtime.frameCommands();
             TrackedBuffer pixels = new TrackedBuffer(ctx, "test.hdr", 16L * W * H, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             TrackedBuffer exposure = new TrackedBuffer(ctx, "test.exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             TrackedBuffer out = new TrackedBuffer(ctx, "test.ldr", 4L * W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            SplittableRandom r = new SplittableRandom(5);
            for (int i = 0; i < 4 * W * H; i++) {
                // Log-uniform over 2^-10..2^8 with a few NaN, infinite and negative channels.
                int kind = r.nextInt(100);
                float v = kind == 0 ? Float.NaN : kind == 1 ? Float.POSITIVE_INFINITY : kind == 2 ? -1f : (float) Math.pow(2, r.nextDouble(-10, 8));
                MemoryUtil.memPutFloat(pixels.mappedAddress() + 4L * i, v);
            }
            pixels.flush(0, pixels.size());
            MemoryUtil.memPutFloat(exposure.mappedAddress() + 4L * ExposureShaderLayout.MULTIPLIER, 0.37f);
            exposure.flush(0, exposure.size());

            int storage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
            int attachment = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
            assertTrue(tonemap.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, storage)), "RGBA8 storage target takes compute");
            assertFalse(tonemap.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, attachment)), "no STORAGE usage: fragment");
            assertFalse(tonemap.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_SRGB, storage | attachment)), "sRGB: fragment");
            byte[] compute = render(loop, tonemap, pixels, exposure, out, storage);
            byte[] fragment = render(loop, tonemap, pixels, exposure, out, attachment);
            int differing = 0;
            for (int i = 0; i < compute.length; i++) {
                int d = Math.abs((compute[i] & 0xff) - (fragment[i] & 0xff));
                assertTrue(d <= 1, "byte " + i + " (pixel " + (i / 4) + "): compute " + (compute[i] & 0xff) + " vs fragment " + (fragment[i] & 0xff));
                differing += d;
            }
            assertTrue(differing <= compute.length / 100, differing + " bytes differ by one step");
            int lit = 0;
            for (int i = 0; i < compute.length; i += 4) {
                lit += (compute[i] & 0xff) > 0 && (compute[i] & 0xff) < 255 ? 1 : 0;
            }
            assertTrue(lit > W * H / 2, "most pixels are mid-tones, not a blank image: " + lit);
        }
    }

    private byte[] render(FrameCommands loop, Tonemapper tonemap, TrackedBuffer pixels, TrackedBuffer exposure, TrackedBuffer out, int usage) {
        MemoryUtil.memSet(out.mappedAddress(), 0x55, out.size());   // poison: every pixel must be written
        out.flush(0, out.size());
        Frame frame = runtime.beginFrame();
        var cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        BufferHandle src = g.importBuffer("hdr.upload", pixels, null);
        record Upload(BufferHandle src, ImageHandle dst) {
        }
        ImageHandle hdr = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                b.write(b.create("hdr", new ImageDesc(W, H, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT
                        | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST)), (io, c) -> copy(c.cmd(), c.buffer(io.src()).handle(),
                c.image(io.dst()).handle(), true)).dst();
        BufferHandle exp = g.importBuffer("exposure", exposure, null);
        ImageHandle ldr = tonemap.add(g, hdr, exp, g.createImage("ldr", new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, usage)));
        BufferHandle dst = g.importBuffer("ldr.readback", out, Access.HOST_READ);
        record Read(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Read(b.read(ldr, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST)),
                (io, c) -> copy(c.cmd(), c.buffer(io.dst()).handle(), c.image(io.src()).handle(), false));
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        Engine.of(runtime).context().waitIdle();
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

package dev.tally.internal.exposure;

import dev.tally.exposure.Tonemapper;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.ShaderCompileException;
import dev.tally.internal.shader.ShaderCompiler;
import dev.tally.internal.shader.ShaderSources;
import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/** Hot reload: a broken shader keeps the previous pipeline running; a fixed one replaces it. */
class HotReloadTest extends GpuTestBase {
    @TempDir
    Path shaders;

    private void copy(String name) throws Exception {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("tally/shaders/" + name)) {
            Files.write(shaders.resolve(name), in.readAllBytes());
        }
    }

    @Test
    void aCompileErrorKeepsThePreviousPipelineAndAFixReplacesIt() throws Exception {
        for (String f : new String[]{"tonemap.vert", "tonemap.frag", "tonemap_common.glsl", "exposure_common.glsl"}) {
            copy(f);
        }
        var ctx = Engine.of(runtime).context();
        try (ShaderCompiler compiler = new ShaderCompiler(ShaderSources.directory(shaders), null);
             TonemapperNode tonemap = new TonemapperNode(ctx, compiler, null);
             FrameCommands loop = runtime.frameCommands();
             TrackedBuffer exposure = new TrackedBuffer(ctx, "exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
             TrackedBuffer pixel = new TrackedBuffer(ctx, "pixel", 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            // multiplier 1: record[1] = 1.0
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, exposure.handle(), 0, exposure.size(), 0);
                dev.tally.internal.vk.Barriers.buffer(cmd, exposure.handle(), org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                        org.lwjgl.vulkan.VK13.VK_ACCESS_2_TRANSFER_WRITE_BIT, org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                        org.lwjgl.vulkan.VK13.VK_ACCESS_2_TRANSFER_WRITE_BIT);
                vkCmdFillBuffer(cmd, exposure.handle(), 4, 4, Float.floatToRawIntBits(1f));
            });
            int before = render(loop, tonemap, exposure, pixel);
            assertTrue((before & 0xff) > 0, "tonemapped grey is not black: " + Integer.toHexString(before));

            Files.writeString(shaders.resolve("tonemap.frag"), Files.readString(shaders.resolve("tonemap.frag")).replace("void main()", "void main() { nonsense; }\nvoid unused()"));
            ShaderCompileException e = assertThrows(ShaderCompileException.class, tonemap::reload);
            assertTrue(e.getMessage().contains("tonemap.frag:"), e.getMessage());
            assertEquals(before, render(loop, tonemap, exposure, pixel), "the previous pipeline keeps running");

            copy("tonemap.frag");
            String darker = Files.readString(shaders.resolve("tonemap.frag")).replace("void main()", "void main_original()")
                    + "\nvoid main() { main_original(); outColor.rgb *= 0.5; }\n";
            Files.writeString(shaders.resolve("tonemap.frag"), darker);
            tonemap.reload();
            int after = render(loop, tonemap, exposure, pixel);
            assertTrue((after & 0xff) < (before & 0xff), "the fixed shader replaced the pipeline: " + Integer.toHexString(before) + " -> "
                    + Integer.toHexString(after));
        }
    }

    @Test
    void aBrokenReductionShaderKeepsTheRunningPipelinesAndAFixReplacesThem() throws Exception {
        copy("reduce.comp");
        copy("reduce_ops.glsl");
        var ctx = Engine.of(runtime).context();
        float[] data = new float[1000];
        java.util.Arrays.fill(data, 0.5f);
        try (ShaderCompiler compiler = new ShaderCompiler(ShaderSources.directory(shaders), null);
             dev.tally.internal.reduce.Reducer reducer = new dev.tally.internal.reduce.Reducer(ctx, compiler, null, Engine.of(runtime).reducer().settings());
             dev.tally.internal.reduce.DeviceArray array = dev.tally.internal.reduce.DeviceArray.of(ctx, "reload.input", data);
             dev.tally.internal.reduce.OneShotReduction one = new dev.tally.internal.reduce.OneShotReduction(ctx, reducer)) {
            assertEquals(500f, one.reduce(dev.tally.reduce.ReduceOp.SUM, array).value());

            String original = Files.readString(shaders.resolve("reduce.comp"));
            Files.writeString(shaders.resolve("reduce.comp"), original.replace("void main()", "void main() { nonsense; }\nvoid unused()"));
            ShaderCompileException e = assertThrows(ShaderCompileException.class, reducer::reload);
            assertTrue(e.getMessage().contains("reduce.comp:"), e.getMessage());
            assertEquals(500f, one.reduce(dev.tally.reduce.ReduceOp.SUM, array).value(), "the running pipelines stay");

            // A changed (not broken) shader: every value it writes is doubled, so the result moves.
            Files.writeString(shaders.resolve("reduce.comp"), original.replace("/ pc.divisor", "/ pc.divisor * 2.0"));
            reducer.reload();
            float after = one.reduce(dev.tally.reduce.ReduceOp.SUM, array).value();
            assertTrue(after >= 1000f, "the reloaded shader replaced the pipelines: 500 -> " + after);
        }
    }

    /** One frame: clear an HDR image to 0.18, tonemap it, read pixel (0,0) as RGBA8. */
    private int render(FrameCommands loop, Tonemapper tonemap, TrackedBuffer exposure, TrackedBuffer pixel) {
        Frame frame = runtime.beginFrame();
        var cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        ImageHandle hdr = g.addPass("clear", PassKind.TRANSFER, b -> b.write(b.create("hdr",
                new ImageDesc(8, 8, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)),
                Access.TRANSFER_DST), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdClearColorImage(c.cmd(), c.image(h).handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                        VkClearColorValue.calloc(stack).float32(0, 0.18f).float32(1, 0.18f).float32(2, 0.18f).float32(3, 1),
                        VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1));
            }
        });
        BufferHandle exp = g.importBuffer("exposure", exposure, null);
        ImageHandle ldr = tonemap.add(g, hdr, exp, g.createImage("ldr", new ImageDesc(8, 8, VK_FORMAT_R8G8B8A8_UNORM,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT)));
        BufferHandle out = g.importBuffer("pixel", pixel, Access.HOST_READ);
        record Io(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Io(b.read(ldr, Access.TRANSFER_SRC), b.write(out, Access.TRANSFER_DST)), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                region.imageExtent().set(1, 1, 1);
                vkCmdCopyImageToBuffer(c.cmd(), c.image(h.src()).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.buffer(h.dst()).handle(), region);
            }
        });
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        Engine.of(runtime).context().waitIdle();
        pixel.invalidate(0, 4);
        return MemoryUtil.memGetInt(pixel.mappedAddress());
    }
}

package dev.tally.demo.bench;

import dev.tally.internal.exposure.TonemapperNode;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;

import java.io.PrintStream;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The tonemap pass on a W x H RGBA16F image into an RGBA8 target, timed by the frame graph's per-pass
 * timestamps over many frames: with a STORAGE target (compute path, where the device supports it) or
 * a colour-attachment-only target (fragment path).
 */
public final class TonemapBench {
    private TonemapBench() {
    }

    /** Median microseconds of the tonemap pass; {@code compute} asks for a target the compute path can write. */
    public static double run(Tally rt, int width, int height, int frames, boolean compute, PrintStream progress) {
        return run(rt, width, height, frames, compute, TonemapperNode.DEFAULT_ROWS_PER_INVOCATION, true, progress);
    }

    /**
     * As above, with {@code rows} pixels per compute invocation (1, 2, 4 or 8); the HDR input written each frame by a compute
     * pass ({@code written}, as a renderer's scene writes it) or cleared by a transfer.
     */
    public static double run(Tally rt, int width, int height, int frames, boolean compute, int rows, boolean written, PrintStream progress) {
        VulkanContext ctx = Engine.of(rt).context();
        int usage = (compute ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        ImageDesc target = new ImageDesc(width, height, VK_FORMAT_R8G8B8A8_UNORM, usage);
        ImageDesc hdrDesc = new ImageDesc(width, height, VK_FORMAT_R16G16B16A16_SFLOAT,
                VK_IMAGE_USAGE_SAMPLED_BIT | (written ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_TRANSFER_DST_BIT));
        String pass = "bench/tonemap-" + width + "x" + height + (compute ? "-compute-rows" + rows : "-fragment") + (written ? "" : "-cleared");
        try (BenchFill writer = written ? new BenchFill(rt) : null;
             FrameCommands loop = rt.frameCommands();
             TonemapperNode tonemap = new TonemapperNode(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), rows);
             TrackedBuffer exposure = new TrackedBuffer(ctx, "bench.exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, exposure.handle(), 0, exposure.size(), Float.floatToRawIntBits(0.5f)));
            boolean usesCompute = tonemap.usesCompute(target);
            for (int f = 0; f < frames; f++) {
                float level = 0.05f * (1 + f % 50);
                Frame frame = rt.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle hdr = writer != null ? writer.write(g, "fill", b -> b.create("hdr", hdrDesc), level, level * 2, level / 2)
                        : BenchPasses.clear(g, "fill", b -> b.create("hdr", hdrDesc), level, level * 2, level / 2);
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                ImageHandle out = tonemap.add(g, pass, hdr, exp, g.createImage("ldr", target));
                BenchPasses.keep(g, out, Access.TRANSFER_SRC);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            Engine.of(rt).graphs().collectTimings();
            double median = rt.passStats().medianMicros(pass);
            progress.printf(Locale.ROOT, "  tonemap %dx%d %-8s rows %d%s %8.2f us%n", width, height, usesCompute ? "compute" : "fragment", rows,
                    written ? "" : " cleared", median);
            return median;
        }
    }
}

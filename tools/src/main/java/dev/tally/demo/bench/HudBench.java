package dev.tally.demo.bench;

import dev.tally.internal.hud.ExposurePlotNode;

import dev.tally.internal.hud.HudOverlayNode;

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
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The HUD composite on a W x H RGBA8 image (the demo's 14 lines of text, the histogram, the exposure
 * plot with a full window of history), timed by the frame graph's per-pass timestamps over many frames:
 * with a STORAGE target (compute path) or a colour-attachment-only target (graphics path).
 */
public final class HudBench {
    private static final float MIN_EV = -10, MAX_EV = 20;

    private HudBench() {
    }

    /** Median microseconds of the HUD pass. */
    public static double run(Tally rt, int width, int height, int frames, boolean compute, PrintStream progress) {
        VulkanContext ctx = Engine.of(rt).context();
        int usage = (compute ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) | VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        ImageDesc target = new ImageDesc(width, height, VK_FORMAT_R8G8B8A8_UNORM, usage);
        String pass = "bench/hud-" + width + "x" + height + (compute ? "-compute" : "-graphics");
        List<String> lines = new ArrayList<>();
        lines.add("Tally demo | NVIDIA H200 | 3840x2160");
        for (int i = 1; i < 14; i++) {
            lines.add(String.format(Locale.ROOT, "pass %-12s %8.2f us  %6.1f%%  frame %d", "p" + i, 1.5 * i, 0.7 * i, i));
        }
        try (FrameCommands loop = rt.frameCommands();
             HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION, compute);   // the compute case measures compute on any device
             ExposurePlotNode plot = new ExposurePlotNode(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache());
             TrackedBuffer normalized = new TrackedBuffer(ctx, "bench.normalized", ExposureShaderLayout.NORMALIZED_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
             TrackedBuffer exposure = new TrackedBuffer(ctx, "bench.exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, normalized.handle(), 0, normalized.size(), Float.floatToRawIntBits(1f / 256));
                vkCmdFillBuffer(cmd, exposure.handle(), 0, exposure.size(), Float.floatToRawIntBits(1f));   // valid, EV 1
            });
            boolean usesCompute = hud.usesCompute(target);
            for (int f = 0; f < frames; f++) {
                Frame frame = rt.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle cleared = BenchPasses.clear(g, "clear", b -> b.create("ldr", target), 0.2f, 0.3f, 0.4f);
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                // 1/60 s per frame over the 10 s window: the plot's lines are full after 600 frames.
                ExposurePlot.View view = plot.add(g, exp, f / 60f);
                ImageHandle out = hud.add(g, pass, cleared, lines,
                        new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null), exp, MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV)), view);
                BenchPasses.keep(g, out, Access.TRANSFER_SRC);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            Engine.of(rt).graphs().collectTimings();
            double median = rt.passStats().medianMicros(pass);
            progress.printf(Locale.ROOT, "  hud %dx%d %-8s %8.2f us%n", width, height, usesCompute ? "compute" : "graphics", median);
            return median;
        }
    }
}

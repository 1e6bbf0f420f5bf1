package dev.tally.demo.bench;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * Tone mapping a W x H RGBA16F image into an RGBA8 storage target with the demo's HUD over it (14 text
 * lines, the histogram, a full plot), as one fused pass "tonemap+hud" or as the pair "tonemap" then
 * "hud": the A/B of the fusion. Timed by the frame graph's per-pass timestamps and the frame's span
 * (fill, plot append, the pass or pair, keep) over many frames.
 */
public final class TonemapHudBench {
    /** Medians: the fused pass, or the pair's two passes and their sum; and the frame's span. */
    public record Result(boolean fused, double tonemapMicros, double hudMicros, double spanMicros) {
        /** The fused pass, or the tonemap and HUD passes together. */
        public double passMicros() {
            return fused ? tonemapMicros : tonemapMicros + hudMicros;
        }
    }

    private TonemapHudBench() {
    }

    public static Result run(Tally rt, int width, int height, int frames, boolean fused, PrintStream progress) {
        VulkanContext ctx = rt.context();
        ImageDesc target = new ImageDesc(width, height, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        ImageDesc hdrDesc = new ImageDesc(width, height, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        String size = width + "x" + height;
        String tonemapPass = fused ? "bench/tonemap+hud-" + size : "bench/tonemap-" + size + "-pair";
        String hudPass = "bench/hud-" + size + "-pair";
        List<String> lines = HudBench.demoLines();
        try (FrameCommands loop = new FrameCommands(rt);
             Tonemapper tonemap = new Tonemapper(ctx, rt.compiler(), rt.pipelineCache());
             HudOverlay hud = new HudOverlay(ctx, rt.compiler(), rt.pipelineCache(), HudOverlay.DEFAULT_TEXT_FRACTION);
             ExposurePlot plot = new ExposurePlot(ctx, rt.compiler(), rt.pipelineCache());
             GpuBuffer normalized = new GpuBuffer(ctx, "bench.normalized", ExposureShaderLayout.NORMALIZED_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
             GpuBuffer exposure = new GpuBuffer(ctx, "bench.exposure", ExposureShaderLayout.EXPOSURE_BYTES,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, normalized.handle(), 0, normalized.size(), Float.floatToRawIntBits(1f / 256));
                vkCmdFillBuffer(cmd, exposure.handle(), 0, exposure.size(), Float.floatToRawIntBits(1f));   // valid, EV 1, multiplier 1
            });
            if (!hud.fusesWith(tonemap, target)) {
                progress.printf(Locale.ROOT, "  tonemap+hud %s: not measured, this device runs the tonemap or the HUD outside compute%n", size);
                return new Result(fused, Double.NaN, Double.NaN, Double.NaN);
            }
            for (int f = 0; f < frames; f++) {
                float level = 0.05f * (1 + f % 50);
                Frame frame = rt.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle hdr = BenchPasses.clear(g, "fill", b -> b.create("hdr", hdrDesc), level, level * 2, level / 2);
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                ExposurePlot.View view = plot.add(g, exp, f / 60f);   // the plot's lines are full after 600 frames
                HudOverlay.HistogramView hv = new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null), exp,
                        HudBench.MIN_EV, HudBench.MAX_EV, 255 / (HudBench.MAX_EV - HudBench.MIN_EV));
                ImageHandle ldr = g.createImage("ldr", target);
                ImageHandle out = fused ? hud.addWithTonemap(g, tonemapPass, tonemap, hdr, ldr, lines, hv, view)
                        : hud.add(g, hudPass, tonemap.add(g, tonemapPass, hdr, exp, ldr), lines, hv, view);
                BenchPasses.keep(g, out, Access.TRANSFER_SRC);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            rt.graphs().collectTimings();
            var stats = rt.graphs().stats();
            Result r = new Result(fused, stats.medianMicros(tonemapPass), fused ? 0 : stats.medianMicros(hudPass), stats.medianMicros(GraphRuntime.FRAME_SPAN));
            if (fused) {
                progress.printf(Locale.ROOT, "  tonemap+hud %s fused    %8.2f us (frame span %8.2f us)%n", size, r.passMicros(), r.spanMicros());
            } else {
                progress.printf(Locale.ROOT, "  tonemap+hud %s two passes %8.2f us = tonemap %.2f + hud %.2f (frame span %8.2f us)%n", size,
                        r.passMicros(), r.tonemapMicros(), r.hudMicros(), r.spanMicros());
            }
            return r;
        }
    }
}

package dev.tally.demo.bench;

import dev.tally.internal.exposure.AutoExposureNode;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.Access;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.VulkanContext;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The auto-exposure chain (histogram with its resolve, total, exposure with normalization fused in) on a W x H RGBA16F image,
 * timed per pass by the frame graph's timestamps over many frames. Each frame first clears the image
 * to a new value (a transfer pass, not counted), as a renderer writes its HDR target before metering.
 */
public final class ExposureBench {
    private ExposureBench() {
    }

    /**
     * How the HDR image is produced before each frame's chain. CLEAR: cleared to a new value every frame
     * (a renderer writes its target just before metering: the chain reads an image whose last lines may
     * still be dirty in the cache). ONCE_COLD: written once; each later frame first reads a 512 MiB buffer
     * (a clean cache flush, as the reduction benchmarks do), so the chain reads the image from memory.
     * ONCE_WARM: written once, no flush (what of the image stays in the cache between frames is read there).
     */
    public enum Fill { CLEAR, ONCE_COLD, ONCE_WARM }

    /** Median microseconds per pass, "chain" for the sum of the per-frame passes, "chain+once" with the curve upload too. */
    public static Map<String, Double> run(Tally rt, int width, int height, int frames, PrintStream progress) {
        return run(rt, width, height, frames, 0, progress);   // 0: rows as the engine picks them for this size
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, PrintStream progress) {
        return run(rt, width, height, frames, rows, Fill.CLEAR, progress);
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, Fill fill, PrintStream progress) {
        VulkanContext ctx = Engine.of(rt).context();
        Map<String, Double> out = new LinkedHashMap<>();
        GraphRuntime graphs = Engine.of(rt).graphs();
        String scope = "bench/exposure-" + width + "x" + height + "-rows" + rows + "-" + fill.name().toLowerCase(Locale.ROOT);
        try (ReductionBench.CacheFlush flush = fill == Fill.ONCE_COLD ? new ReductionBench.CacheFlush(rt, ReductionBench.FlushMode.CLEAN, 512L << 20) : null;
             FrameCommands commands = rt.frameCommands();
             AutoExposure exposure = new AutoExposureNode(graphs, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), Engine.of(rt).reducer(), scope, ExposureSettings.DEFAULTS, rows)) {
            ImageDesc desc = new ImageDesc(width, height, VK_FORMAT_R16G16B16A16_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
            TrackedImage once = fill == Fill.CLEAR ? null : TrackedImage.create(ctx, "bench.exposure.hdr", width, height, desc.format(), desc.usage());
            for (int f = 0; f < frames; f++) {
                float level = 0.05f * (1 + f % 50);
                Frame frame = rt.beginFrame();
                var cmd = commands.begin(frame);
                FrameGraph g = frame.graph();
                boolean clear = fill == Fill.CLEAR || f == 0;
                ImageHandle imported = once == null ? null : g.importImage("hdr", once, null);
                if (!clear) {
                    g.addPass("flush", PassKind.COMPUTE, b -> {
                        b.sideEffect();
                        return null;
                    }, (h, c) -> {
                        if (flush != null) {
                            flush.record(c.cmd());
                            Barriers.memory(c.cmd(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
                        }
                    });
                }
                ImageHandle hdr = !clear ? imported
                        : BenchPasses.clear(g, "fill", b -> imported != null ? imported : b.create("hdr", desc), level, level * 2, level / 2);
                AutoExposure.Result r = exposure.add(g, hdr, 1f / 60);
                BenchPasses.keep(g, r.exposure(), Access.COMPUTE_READ);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            if (once != null) {
                once.close();
            }
            summarize(graphs, scope, frames, String.format(Locale.ROOT, "%dx%d rows %d %-9s", width, height, rows, fill), out, progress);
        }
        return out;
    }

    /**
     * Median per pass of {@code scope}; "chain" is the sum over the passes that ran in most frames (the per-frame
     * chain). A pass recorded only in a few frames (the curve upload, which runs when the curve changes: the first
     * frame here) is reported as it is and left out of "chain"; "chain+once" adds it back.
     */
    private static void summarize(GraphRuntime graphs, String scope, int frames, String label, Map<String, Double> out, PrintStream progress) {
        graphs.collectTimings();
        double chain = 0;
        double all = 0;
        for (String pass : graphs.stats().passes().keySet()) {
            if (!pass.startsWith(scope + "/")) {
                continue;
            }
            double median = graphs.stats().medianMicros(pass);
            long samples = graphs.stats().samples(pass);
            String local = pass.substring(scope.length() + 1);
            boolean everyFrame = samples * 2 >= Math.min(frames, 100);
            out.put(local, median);
            all += median;
            if (everyFrame) {
                chain += median;
            }
            progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us (%d samples%s)%n", label, local, median, samples, everyFrame ? "" : ", not per frame");
        }
        out.put("chain", chain);
        out.put("chain+once", all);
        progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us%n", label, "chain (per frame)", chain);
        progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us%n", label, "chain+once", all);
    }
}

package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.internal.exposure.AutoExposureNode;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The auto-exposure chain (histogram with its resolve, total, exposure with normalization fused in) on a W x H RGBA16F image,
 * timed per pass by the frame graph's timestamps over many frames. Each frame first writes the image with a new
 * colour by a compute pass (not counted; {@link BenchFill}: every pixel within 2 % of it), as a renderer's scene writes
 * its HDR target before metering, and the histogram reads it as a storage image. Two more runs clear the image to the
 * colour with a transfer instead: one read as a storage image ("cleared-"), one made without STORAGE usage and read
 * through a sampler ("sampled-"), as the histogram reads a host's image made without it. Every run checks the last
 * frame's bins: its colour lies far enough inside its bin that one bin holds all W x H pixels and every other bin none.
 */
public final class ExposureBench {
    private ExposureBench() {
    }

    /**
     * How the HDR image is produced before each frame's chain. WRITE: written with a new value every frame by a compute
     * pass, as a renderer's scene writes its target just before metering (the chain reads an image whose last lines may
     * still be dirty in the cache). CLEAR: cleared to a new value every frame by a transfer (what the bench did before
     * round 15; on the H200 such an image reads slower). ONCE_COLD: cleared once; each later frame first reads a 512 MiB buffer
     * (a clean cache flush, as the reduction benchmarks do), so the chain reads the image from memory.
     * ONCE_WARM: cleared once, no flush (what of the image stays in the cache between frames is read there).
     */
    public enum Fill { WRITE, CLEAR, ONCE_COLD, ONCE_WARM }

    /**
     * Median microseconds per pass, "chain" for the sum of the per-frame passes, "chain+once" with the curve upload too,
     * of the image written by a compute pass; then the same of the cleared image read as a storage image, under
     * "cleared-", and through a sampler, under "sampled-" (every run's bins checked equal to the first's).
     */
    public static Map<String, Double> run(Tally rt, int width, int height, int frames, PrintStream progress) {
        Checked written = run(rt, width, height, frames, 0, Fill.WRITE, false, progress);   // 0: rows as the engine picks them
        Checked cleared = run(rt, width, height, frames, 0, Fill.CLEAR, false, progress);
        Checked sampled = run(rt, width, height, frames, 0, Fill.CLEAR, true, progress);
        if (cleared.bin() != written.bin() || sampled.bin() != written.bin()) {
            throw new IllegalStateException("internal: exposure bench: the flat image went to bin " + written.bin() + " written by a compute pass, "
                    + cleared.bin() + " cleared and " + sampled.bin() + " cleared and sampled");
        }
        Map<String, Double> out = new LinkedHashMap<>(written.medians());
        cleared.medians().forEach((pass, us) -> out.put("cleared-" + pass, us));
        sampled.medians().forEach((pass, us) -> out.put("sampled-" + pass, us));
        return out;
    }

    /** A run's medians and the one bin its last frame's pixels went to. */
    private record Checked(Map<String, Double> medians, int bin) {
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, PrintStream progress) {
        return run(rt, width, height, frames, rows, Fill.WRITE, progress);
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, Fill fill, PrintStream progress) {
        return run(rt, width, height, frames, rows, fill, false, progress).medians();
    }

    private static Checked run(Tally rt, int width, int height, int frames, int rows, Fill fill, boolean sampled, PrintStream progress) {
        VulkanContext ctx = Engine.of(rt).context();
        Map<String, Double> out = new LinkedHashMap<>();
        GraphRuntime graphs = Engine.of(rt).graphs();
        String scope = "bench/exposure-" + width + "x" + height + "-rows" + rows + "-" + fill.name().toLowerCase(Locale.ROOT)
                + (sampled ? "-sampled" : "");
        int bin;
        try (ReductionBench.CacheFlush flush = fill == Fill.ONCE_COLD ? new ReductionBench.CacheFlush(rt, ReductionBench.FlushMode.CLEAN, 512L << 20) : null;
             FrameCommands commands = rt.frameCommands();
             TrackedBuffer bins = new TrackedBuffer(ctx, "bench.exposure.bins", ExposureShaderLayout.BINS_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.READBACK);
             AutoExposure exposure = new AutoExposureNode(graphs, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), Engine.of(rt).reducer(), scope, ExposureSettings.DEFAULTS, rows);
             BenchFill writer = fill == Fill.WRITE ? new BenchFill(rt) : null) {
            // Without STORAGE usage the histogram reads the image through a sampler (HdrRead.SAMPLED).
            ImageDesc desc = new ImageDesc(width, height, VK_FORMAT_R16G16B16A16_SFLOAT,
                    (sampled ? 0 : VK_IMAGE_USAGE_STORAGE_BIT) | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
            TrackedImage once = fill == Fill.CLEAR || fill == Fill.WRITE ? null : TrackedImage.create(ctx, "bench.exposure.hdr", width, height, desc.format(), desc.usage());
            for (int f = 0; f < frames; f++) {
                float level = 0.05f * (1 + f % 50);
                Frame frame = rt.beginFrame();
                var cmd = commands.begin(frame);
                FrameGraph g = frame.graph();
                boolean clear = fill == Fill.CLEAR || fill == Fill.WRITE || f == 0;
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
                        : writer != null ? writer.write(g, "fill", b -> b.create("hdr", desc), level, level * 2, level / 2)
                        : BenchPasses.clear(g, "fill", b -> imported != null ? imported : b.create("hdr", desc), level, level * 2, level / 2);
                AutoExposure.Result r = exposure.add(g, hdr, 1f / 60);
                BenchPasses.keep(g, r.exposure(), Access.COMPUTE_READ);
                if (f == frames - 1) {
                    readBins(g, r.bins(), bins);
                }
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            if (once != null) {
                once.close();
            }
            bin = flatImageBin(bins, (long) width * height, scope);
            summarize(graphs, scope, frames, String.format(Locale.ROOT, "%dx%d rows %d %-9s%s", width, height, rows, fill,
                    sampled ? " sampled" : ""), out, progress);
        }
        return new Checked(out, bin);
    }

    /** A transfer pass (outside the timed scope) copying this frame's bins to the host-visible {@code dst}. */
    private static void readBins(FrameGraph g, BufferHandle bins, TrackedBuffer dst) {
        g.addPass("bins-readback", PassKind.TRANSFER, b -> {
            b.sideEffect();
            return b.read(bins, Access.TRANSFER_SRC);
        }, (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdCopyBuffer(c.cmd(), c.buffer(h).handle(), dst.handle(), VkBufferCopy.calloc(1, stack).size(ExposureShaderLayout.BINS_BYTES));
            }
            Barriers.buffer(c.cmd(), dst.handle(), VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
    }

    /** The bin holding every one of the flat image's {@code pixels} (uniform metering: one unit each); any other histogram is a bug. */
    private static int flatImageBin(TrackedBuffer bins, long pixels, String scope) {
        bins.invalidate(0, ExposureShaderLayout.BINS_BYTES);
        java.nio.FloatBuffer w = MemoryUtil.memByteBuffer(bins.mappedAddress(), (int) ExposureShaderLayout.BINS_BYTES)
                .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        int full = -1;
        for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
            float v = w.get(i);
            if ((double) v == (double) pixels && full < 0) {
                full = i;
            } else if (v != 0f) {
                throw new IllegalStateException("internal: exposure bench " + scope + ": bin " + i + " holds " + v + " of a flat image of " + pixels
                        + " pixels; expected all of them in one bin and 0 elsewhere");
            }
        }
        if (full < 0) {
            throw new IllegalStateException("internal: exposure bench " + scope + ": no bin holds all " + pixels + " pixels of the flat image");
        }
        return full;
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

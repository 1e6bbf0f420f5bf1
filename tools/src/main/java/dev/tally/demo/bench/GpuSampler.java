package dev.tally.demo.bench;

import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TimestampQueries;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.Arrays;
import java.util.function.Consumer;

import static org.lwjgl.vulkan.VK13.*;

/**
 * Times GPU work with timestamp queries: warm-up samples, then measured samples, all recorded into
 * one submission. Cold mode runs a flush before each sample that pushes the timed work's data out of
 * the last-level cache, so the timed work reads its input from memory.
 */
final class GpuSampler implements AutoCloseable {
    /** Median, min and max of the measured samples, in microseconds. */
    record Stats(double median, double min, double max, int samples) {
    }

    private final VulkanContext ctx;
    private final Consumer<VkCommandBuffer> flush;
    private final int warmup;
    private final int samples;
    private final TimestampQueries queries;

    /** @param flush records the cache flush before each sample, or null for warm runs */
    GpuSampler(VulkanContext ctx, Consumer<VkCommandBuffer> flush, int warmup, int samples) {
        this.ctx = ctx;
        this.flush = flush;
        this.warmup = warmup;
        this.samples = samples;
        this.queries = new TimestampQueries(ctx, 2 * (warmup + samples));
    }

    Stats time(Consumer<VkCommandBuffer> body) {
        int total = warmup + samples;
        // A GPU gets every sample in one submission, so it never idles (and drops its clocks) between
        // samples; a CPU driver, which may take seconds per sample, gets one submission per sample.
        int batch = ctx.info().isCpu() ? 1 : total;
        for (int first = 0; first < total; first += batch) {
            int from = first, to = Math.min(total, first + batch);
            ctx.submitAndWait(cmd -> {
              queries.reset(cmd, 2 * from, 2 * (to - from));
              for (int s = from; s < to; s++) {
                if (flush != null) {
                    flush.accept(cmd);
                }
                // Everything before (the cache flush, the previous sample) finishes before the clock starts.
                Barriers.memory(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
                queries.write(cmd, 2 * s);
                body.accept(cmd);
                queries.write(cmd, 2 * s + 1);
                Barriers.memory(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
              }
            });
        }
        long[] ticks = new long[2 * total];
        if (!queries.read(0, 2 * total, ticks)) {
            throw new IllegalStateException("timestamps not available after the submission completed");
        }
        double[] micros = new double[samples];
        for (int s = 0; s < samples; s++) {
            int q = 2 * (warmup + s);
            micros[s] = queries.nanos(ticks[q], ticks[q + 1]) / 1000.0;
        }
        Arrays.sort(micros);
        double median = samples % 2 == 1 ? micros[samples / 2] : (micros[samples / 2 - 1] + micros[samples / 2]) / 2;
        return new Stats(median, micros[0], micros[samples - 1], samples);
    }

    @Override
    public void close() {
        queries.close();
    }
}

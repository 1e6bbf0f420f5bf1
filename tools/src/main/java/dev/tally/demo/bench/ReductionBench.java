package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.reduce.ReducePlan;
import dev.tally.internal.reduce.ReduceSettings;
import dev.tally.reduce.ReduceStats;
import dev.tally.internal.reduce.Reducer;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The GPU benchmark cases: copy ceiling, Tally's reduction (sum, min, max) over a range of sizes, the
 * two baselines, and an optional sweep of reduction configurations. Inputs are filled with 1.0 on
 * the GPU, so every result is checked (sum = n) without uploading anything.
 */
public final class ReductionBench {
    private final Tally rt;
    private final VulkanContext ctx;
    private final PrintStream progress;
    private final boolean cold;
    private final int warmup;
    private final int samples;
    private final CacheFlush flush;
    private final List<BenchResult> results = new ArrayList<>();

    /**
     * Cache flush modes. CLEAN reads a buffer several times the cache (a reduction of it): the cache
     * ends up full of clean lines. DIRTY writes one (vkCmdFillBuffer), as the CUB reference runs do:
     * the timed work then also pays to write those dirty lines back.
     */
    public enum FlushMode { CLEAN, DIRTY }

    public ReductionBench(Tally rt, PrintStream progress, boolean cold, FlushMode mode, int warmup, int samples, long flushBytes) {
        this.rt = rt;
        this.ctx = Engine.of(rt).context();
        this.progress = progress;
        this.cold = cold;
        this.warmup = warmup;
        this.samples = samples;
        this.flush = cold ? new CacheFlush(rt, mode, flushBytes) : null;
    }

    /** Evicts the cache before each sample; see {@link FlushMode}. */
    static final class CacheFlush implements AutoCloseable {
        private final FlushMode mode;
        private final TrackedBuffer buffer;
        private final TrackedBuffer scratch;
        private final TrackedBuffer sink;
        private final Reducer reducer;
        private final ReducePlan plan;

        CacheFlush(Tally rt, FlushMode mode, long bytes) {
            VulkanContext ctx = Engine.of(rt).context();
            this.mode = mode;
            int usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
            buffer = new TrackedBuffer(ctx, "bench.flush", bytes, usage, MemoryKind.DEVICE);
            reducer = Engine.of(rt).reducer();
            plan = reducer.plan(bytes / 4);
            scratch = new TrackedBuffer(ctx, "bench.flush.scratch", plan.scratchBytes(), usage, MemoryKind.DEVICE);
            sink = new TrackedBuffer(ctx, "bench.flush.sink", 16, usage, MemoryKind.DEVICE);
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, buffer.handle(), 0, bytes, 0);
                vkCmdFillBuffer(cmd, scratch.handle(), 0, scratch.size(), 0);
            });
        }

        void record(VkCommandBuffer cmd) {
            if (mode == FlushMode.DIRTY) {
                vkCmdFillBuffer(cmd, buffer.handle(), 0, buffer.size(), 0);
            } else {
                reducer.record(cmd, ReduceOp.SUM, plan, buffer, 0, scratch, sink, 0);
            }
        }

        @Override
        public void close() {
            sink.close();
            scratch.close();
            buffer.close();
        }
    }

    public List<BenchResult> results() {
        return results;
    }

    private GpuSampler sampler() {
        return new GpuSampler(ctx, flush == null ? null : flush::record, warmup, samples);
    }

    private void add(String name, long n, GpuSampler.Stats s, double bytes, String config) {
        BenchResult r = new BenchResult(name, n, cold, s.median(), s.min(), s.max(), bytes / (s.median() * 1e3), config);
        results.add(r);
        progress.printf(Locale.ROOT, "  %-16s n=%-10d %10.2f us  (%.2f..%.2f)  %8.1f GB/s %s%n", name, n, s.median(), s.min(), s.max(),
                r.bandwidthGBs(), config);
    }

    /** vkCmdCopyBuffer of {@code bytes}: bytes read + written per second, the practical bandwidth ceiling. */
    public void copyCeiling(long bytes) {
        progress.println("copy ceiling, " + (bytes >> 20) + " MiB");
        int usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        try (TrackedBuffer src = new TrackedBuffer(ctx, "bench.copy.src", bytes, usage, MemoryKind.DEVICE);
             TrackedBuffer dst = new TrackedBuffer(ctx, "bench.copy.dst", bytes, usage, MemoryKind.DEVICE);
             GpuSampler sampler = sampler()) {
            ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, src.handle(), 0, bytes, 0));
            // Many regions: the driver spreads them over the copy hardware; one huge region may not be.
            int regions = (int) Math.max(1, Math.min(256, bytes >> 22));
            long part = bytes / regions;
            GpuSampler.Stats s = sampler.time(cmd -> {
                try (MemoryStack stack = MemoryStack.stackPush()) {
                    VkBufferCopy.Buffer copies = VkBufferCopy.calloc(regions, stack);
                    for (int r = 0; r < regions; r++) {
                        copies.get(r).srcOffset(r * part).dstOffset(r * part).size(r == regions - 1 ? bytes - r * part : part);
                    }
                    vkCmdCopyBuffer(cmd, src.handle(), dst.handle(), copies);
                }
            });
            add("copy", bytes / 4, s, 2.0 * bytes, "vkCmdCopyBuffer, " + regions + " regions");
            copyShader(src, dst, bytes, "copy-shader", "vec4 compute copy");
        }
    }

    /**
     * A vec4 compute copy of {@code bytes} (read and written: twice that moved), reported as {@code name}: the DRAM floor
     * of any pass that moves as many bytes, such as the tonemap's read of its HDR image and write of its display image.
     */
    public void copyFloor(String name, long bytes, String what) {
        int usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        try (TrackedBuffer src = new TrackedBuffer(ctx, "bench.floor.src", bytes, usage, MemoryKind.DEVICE);
             TrackedBuffer dst = new TrackedBuffer(ctx, "bench.floor.dst", bytes, usage, MemoryKind.DEVICE)) {
            ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, src.handle(), 0, bytes, 0));
            copyShader(src, dst, bytes, name, "vec4 compute copy of " + what);
        }
    }

    /** The same bytes moved by a vec4 compute copy: what shaders can reach when the copy command cannot. */
    private void copyShader(TrackedBuffer src, TrackedBuffer dst, long bytes, String name, String what) {
        try (var pipeline = new dev.tally.internal.shader.ComputePipeline(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "copy.comp",
                java.util.Map.of(), null, 2, 12);
             var sets = new dev.tally.internal.shader.DescriptorSets(ctx, pipeline, 4);
             GpuSampler sampler = sampler()) {
            long set = sets.get(List.of(dev.tally.internal.shader.DescriptorSets.Range.of(src, 0, bytes),
                    dev.tally.internal.shader.DescriptorSets.Range.of(dst, 0, bytes)));
            int groups = Math.max(1, ctx.info().smCount()) * 8;
            GpuSampler.Stats s = sampler.time(cmd -> {
                try (MemoryStack stack = MemoryStack.stackPush()) {
                    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
                    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, stack.longs(set), null);
                    vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, stack.malloc(12).putInt(0, (int) (bytes / 16)));
                    vkCmdDispatch(cmd, groups, 1, 1);
                }
            });
            add(name, bytes / 4, s, 2.0 * bytes, what + ", " + groups + " groups");
        }
    }

    /** One input of n ones, reused by every case at that size. */
    public final class Input implements AutoCloseable {
        final long n;

        public long n() {
            return n;
        }
        final TrackedBuffer data;
        final TrackedBuffer partialsA;
        final TrackedBuffer partialsB;
        final TrackedBuffer partialsC;
        final TrackedBuffer result;
        final TrackedBuffer readback;

        Input(long n) {
            this.n = n;
            int storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
            data = new TrackedBuffer(ctx, "bench.input", Math.max(16, 4 * n), storage, MemoryKind.DEVICE);
            long partialFloats = Math.max(1024, (n + 255) / 256) + 65536;
            partialsA = new TrackedBuffer(ctx, "bench.partials.a", 4 * partialFloats, storage, MemoryKind.DEVICE);
            partialsB = new TrackedBuffer(ctx, "bench.partials.b", 4 * partialFloats, storage, MemoryKind.DEVICE);
            partialsC = new TrackedBuffer(ctx, "bench.partials.c", 4 * partialFloats, storage, MemoryKind.DEVICE);
            result = new TrackedBuffer(ctx, "bench.result", ReduceStats.RECORD_BYTES, storage, MemoryKind.DEVICE);
            readback = new TrackedBuffer(ctx, "bench.readback", ReduceStats.RECORD_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, data.handle(), 0, data.size(), Float.floatToRawIntBits(1f));
                vkCmdFillBuffer(cmd, partialsA.handle(), 0, partialsA.size(), 0);
            });
        }

        /**
         * Before each case: the result becomes NaN (so a case that writes nothing cannot pass its check
         * on an earlier case's answer) and the one-pass ticket counter returns to zero.
         */
        void reset() {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, result.handle(), 0, result.size(), 0x7fc00000);
                vkCmdFillBuffer(cmd, partialsA.handle(), 0, partialsA.size(), 0);
            });
        }

        /** Copies the result to the host and returns it (after the timed samples). */
        float read() {
            return readRecord().getFloat(0);
        }

        /** The whole 32-byte result record (the statistics reduction's). */
        java.nio.ByteBuffer readRecord() {
            ctx.submitAndWait(cmd -> {
                Barriers.memory(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
                try (MemoryStack stack = MemoryStack.stackPush()) {
                    vkCmdCopyBuffer(cmd, result.handle(), readback.handle(), VkBufferCopy.calloc(1, stack).size(ReduceStats.RECORD_BYTES));
                }
                Barriers.buffer(cmd, readback.handle(), VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
            });
            readback.invalidate(0, ReduceStats.RECORD_BYTES);
            return MemoryUtil.memByteBuffer(readback.mappedAddress(), ReduceStats.RECORD_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public void close() {
            readback.close();
            result.close();
            partialsC.close();
            partialsB.close();
            partialsA.close();
            data.close();
        }
    }

    public Input input(long n) {
        return new Input(n);
    }

    /** Tally's reduction with the runtime's reducer (or {@code reducer}, for a sweep). */
    public void reduce(Input in, ReduceOp op, Reducer reducer, String name, String config) {
        ReducePlan plan = reducer.plan(in.n);
        reducer.prepare(op);
        in.reset();
        try (GpuSampler sampler = sampler()) {
            GpuSampler.Stats s = sampler.time(cmd -> reducer.record(cmd, op, plan, in.data, 0, in.partialsA, in.result, 0));
            check(in, op, in.read(), name);
            add(name, in.n, s, 4.0 * in.n, config + (plan.onePass() ? ", one pass" : ", two passes"));
        }
    }

    /** The statistics reduction (count, sum, min, max, mean, variance in one read), checked on the ones. */
    public void stats(Input in, Reducer reducer, String config) {
        stats(in, reducer, config, "reduce-stats");
    }

    /** The same with another reducer's statistics kernel, reported as {@code name}. */
    public void stats(Input in, Reducer reducer, String config, String name) {
        ReducePlan plan = reducer.plan(in.n);
        reducer.prepareStats();
        in.reset();
        try (GpuSampler sampler = sampler()) {
            GpuSampler.Stats s = sampler.time(cmd -> reducer.recordStats(cmd, plan, in.data, 0, in.partialsA, in.result, 0));
            ReduceStats r = ReduceStats.read(in.readRecord());
            boolean ok = r.count() == in.n && Math.abs(r.sum() - in.n) <= in.n * 1e-6 && (in.n == 0
                    || (r.min() == 1f && r.max() == 1f && r.mean() == 1f && r.variance() == 0f));
            if (!ok) {
                throw new IllegalStateException(name + " of " + in.n + " ones gave " + r);
            }
            add(name, in.n, s, 4.0 * in.n, config + (plan.onePass() ? ", one pass" : ", two passes"));
        }
    }

    public void tree(Input in, BaselineReductions baselines) {
        in.reset();
        try (GpuSampler sampler = sampler()) {
            GpuSampler.Stats s = sampler.time(cmd -> baselines.recordTree(cmd, in.data, in.n, in.partialsB, in.result));
            check(in, ReduceOp.SUM, in.read(), "tree");
            add("baseline-tree", in.n, s, 4.0 * in.n, "512x256 scalar, tree");
        }
    }

    public void logN(Input in, BaselineReductions baselines) {
        int[] passes = new int[1];
        in.reset();
        try (GpuSampler sampler = sampler()) {
            GpuSampler.Stats s = sampler.time(cmd -> passes[0] = baselines.recordLogN(cmd, in.data, in.n, in.partialsB, in.partialsC, in.result));
            check(in, ReduceOp.SUM, in.read(), "log-n");
            add("baseline-logn", in.n, s, 4.0 * in.n, passes[0] + " passes");
        }
    }

    private static void check(Input in, ReduceOp op, float got, String name) {
        double expect = switch (op) {
            case SUM -> in.n;
            case MEAN -> in.n == 0 ? Double.NaN : 1.0;
            case MIN -> in.n == 0 ? Double.POSITIVE_INFINITY : 1.0;
            case MAX -> in.n == 0 ? Double.NEGATIVE_INFINITY : 1.0;
        };
        if (!(Math.abs(got - expect) <= Math.abs(expect) * 1e-6) && !(Double.isNaN(expect) && Float.isNaN(got))
                && !(Double.isInfinite(expect) && got == expect)) {
            throw new IllegalStateException(name + " " + op.id() + " of " + in.n + " ones gave " + got + ", expected " + expect);
        }
    }

    /**
     * A statistics kernel to time beside the engine's: {@code NAME=SHADER[:DEFINE[=VALUE],...]}, the shader
     * looked up like every other (TALLY_HOME/shaders), compiled with the defines.
     */
    public record StatsVariant(String name, Reducer reducer) implements AutoCloseable {
        /** A parsed {@code NAME=SHADER[:DEFINE[=VALUE],...]}. */
        public record Spec(String name, String shader, java.util.Map<String, String> defines) {
            /** The variant's reducer: the runtime's settings, this kernel for the statistics. */
            public StatsVariant open(Reducer base) {
                return new StatsVariant(name, base.withStatsKernel(shader, defines));
            }
        }

        /** Checks every spec before anything is created: a bad one is the user's error. */
        public static List<Spec> parseAll(List<String> specs) {
            List<Spec> out = new ArrayList<>();
            for (String spec : specs) {
                int eq = spec.indexOf('=');
                int colon = spec.indexOf(':');
                String name = eq > 0 ? spec.substring(0, eq) : "";
                String shader = eq > 0 ? spec.substring(eq + 1, colon > eq ? colon : spec.length()) : "";
                if (!name.matches("[A-Za-z0-9_.-]+") || shader.isEmpty()) {
                    throw new dev.tally.demo.UserInputException("--stats-variant '" + spec + "': expected NAME=SHADER[:DEFINE[=VALUE],...]");
                }
                java.util.Map<String, String> defines = new java.util.TreeMap<>();
                if (colon > eq) {
                    for (String d : spec.substring(colon + 1).split(",")) {
                        if (d.isEmpty()) {
                            continue;
                        }
                        int e = d.indexOf('=');
                        defines.put(e < 0 ? d : d.substring(0, e), e < 0 ? "1" : d.substring(e + 1));
                    }
                }
                out.add(new Spec(name, shader, java.util.Map.copyOf(defines)));
            }
            return out;
        }

        @Override
        public void close() {
            reducer.close();
        }
    }

    /** Reduction settings for a sweep point, keeping the device's binding range. */
    public static ReduceSettings settings(Config base, VulkanContext ctx, int wg, int groups, int unroll, long singleMax, int minSteps) {
        Config c = base.with("reduce.workgroupSize", Integer.toString(wg)).with("reduce.groups", Integer.toString(groups))
                .with("reduce.unroll", Integer.toString(unroll)).with("reduce.singleDispatchMax", Long.toString(singleMax))
                .with("reduce.minSteps", Integer.toString(minSteps));
        return ReduceSettings.resolve(c, ctx.info());
    }

    public void close() {
        if (flush != null) {
            flush.close();
        }
    }
}

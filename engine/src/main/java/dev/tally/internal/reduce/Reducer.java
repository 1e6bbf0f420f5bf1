package dev.tally.internal.reduce;

import dev.tally.vk.GpuBuffer;

import dev.tally.reduce.ReduceStats;

import dev.tally.reduce.ReduceOp;

import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputePipeline;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.shader.SpecConstants;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The reduction kernels: one pipeline per operator (sum, min, max; mean is a sum divided in its last
 * dispatch), created once, with descriptor sets cached per bound buffer. Records into any command
 * buffer; the frame graph node and tools both call it.
 */
public final class Reducer implements AutoCloseable {
    static final int PUSH_BYTES = 12;
    static final int STATS_PUSH_BYTES = 8;
    /**
     * vec4 loads an invocation of the small statistics pipeline makes at once: one subgroup with this many loads each holds
     * up to {@link #smallStatsLimit()} floats in one round of loads. H200, 2^10 floats: 4.51 us with the 512-invocation
     * group, 4.00 with one subgroup of 32 and eight loads, 4.38 with four (two rounds), 4.22 with 64 invocations.
     */
    static final int SMALL_STATS_LOADS = 8;
    static final String STATS_SHADER = "reduce_stats.comp";
    private static final int SET_CACHE = 256;
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final ReduceSettings settings;
    private final String statsShader;
    private final Map<String, String> statsDefines;
    /** Pipelines and their descriptor caches by (operator, mode): sum/min/max by one pass and unroll, the statistics by kind. */
    private final Map<String, ComputePipeline> pipelines = new java.util.HashMap<>();
    private final Map<String, DescriptorSets> sets = new java.util.HashMap<>();
    /** The bindings of the dispatch being recorded, rewritten per dispatch (recording is single-threaded). */
    private final Bindings bindings = new Bindings(4);

    public Reducer(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, ReduceSettings settings) {
        this(ctx, compiler, cache, settings, STATS_SHADER, Map.of());
    }

    private Reducer(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, ReduceSettings settings, String statsShader,
                    Map<String, String> statsDefines) {
        if (!ctx.info().subgroupArithmetic()) {
            throw new IllegalStateException("device '" + ctx.info().name() + "' lacks subgroup arithmetic in compute shaders");
        }
        if (ctx.info().subgroupSize() < 4) {
            throw new IllegalStateException("device '" + ctx.info().name() + "' has subgroups of " + ctx.info().subgroupSize()
                    + " invocations; the reduction needs at least 4");
        }
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.settings = settings;
        this.statsShader = statsShader;
        this.statsDefines = Map.copyOf(statsDefines);
    }

    /**
     * A reducer whose statistics kernel comes from {@code shader} with the extra {@code defines}
     * (benchmarks compare kernel variants side by side); sum, min, max and mean are unchanged.
     */
    public Reducer withStatsKernel(String shader, Map<String, String> defines) {
        return new Reducer(ctx, compiler, cache, settings, shader, defines);
    }

    public ReduceSettings settings() {
        return settings;
    }

    public ReducePlan plan(long n) {
        return ReducePlan.of(n, settings);
    }

    /**
     * A sum/min/max pipeline's mode: bit 0 one pass (else a first pass or the fold), bit 1 the large inputs' unroll
     * ({@link ReduceSettings#largeUnroll}, where it differs from the base one).
     */
    private int mode(ReducePlan plan, boolean onePass) {
        if (plan.unroll() != settings.unroll() && plan.unroll() != settings.largeUnroll()) {
            throw new IllegalArgumentException("plan for n=" + plan.n() + " reads with unroll " + plan.unroll() + "; this reducer has "
                    + settings.unroll() + " and " + settings.largeUnroll() + ": make the plan with its plan(n)");
        }
        return (onePass ? 1 : 0) | (plan.unroll() != settings.unroll() ? 2 : 0);
    }

    private static String key(ReduceOp op, int mode) {
        return PIPELINE_KEYS[keyIndex(op, mode)];
    }

    /** "sum/two-pass", "sum/one-pass", "sum/two-pass/large", ...: made once, so looking a pipeline up allocates nothing. */
    private static final String[] PIPELINE_KEYS = java.util.Arrays.stream(ReduceOp.values())
            .flatMap(op -> java.util.stream.Stream.of(op.id() + "/two-pass", op.id() + "/one-pass", op.id() + "/two-pass/large",
                    op.id() + "/one-pass/large")).toArray(String[]::new);

    /** By {@link #keyIndex}: the pipelines and their sets found so far, asked before the maps (no string hashed per dispatch). */
    private final ComputePipeline[] pipelineAt = new ComputePipeline[PIPELINE_KEYS.length];
    private final DescriptorSets[] setsAt = new DescriptorSets[PIPELINE_KEYS.length];

    private static int keyIndex(ReduceOp op, int mode) {
        return 4 * (op == ReduceOp.MEAN ? ReduceOp.SUM : op).ordinal() + mode;
    }

    private ComputePipeline pipeline(ReduceOp op, int mode) {
        int k = keyIndex(op, mode);
        ComputePipeline p = pipelineAt[k];
        if (p == null) {
            p = pipelines.get(key(op, mode));   // no capturing lambda on the per-frame path
            p = pipelineAt[k] = p != null ? p : pipelines.computeIfAbsent(key(op, mode), kk -> build(op, mode));
        }
        return p;
    }

    private ComputePipeline build(ReduceOp op, int mode) {
        ReduceOp shaderOp = op == ReduceOp.MEAN ? ReduceOp.SUM : op;
        boolean onePass = (mode & 1) != 0;
        int unroll = (mode & 2) != 0 ? settings.largeUnroll() : settings.unroll();
        return new ComputePipeline(ctx, compiler, cache, "reduce.comp", onePass ? Map.of("ONE_PASS", "1") : Map.of(),
                SpecConstants.of(0, settings.workgroupSize(), 1, shaderOpConstant(shaderOp), 2, unroll, 3, settings.blocked() ? 1 : 0),
                onePass ? 4 : 2, PUSH_BYTES);
    }

    private DescriptorSets sets(ReduceOp op, int mode) {
        int k = keyIndex(op, mode);
        DescriptorSets existing = setsAt[k];
        if (existing == null) {
            existing = sets.get(key(op, mode));
            existing = setsAt[k] = existing != null ? existing : sets.computeIfAbsent(key(op, mode), kk -> new DescriptorSets(ctx, pipeline(op, mode), SET_CACHE));
        }
        return existing;
    }

    /**
     * Statistics pipelines: "one-pass", "two-pass" (first pass), "fold", and "small" (one pass in one subgroup, for inputs
     * up to {@link #smallStatsLimit()}); built on first use.
     */
    private DescriptorSets statsSets(String mode) {
        String key = statsKey(mode);
        DescriptorSets existing = sets.get(key);
        return existing != null ? existing : sets.computeIfAbsent(key, k -> new DescriptorSets(ctx, pipelines.computeIfAbsent(k, kk -> statsPipeline(mode)),
                SET_CACHE));
    }

    /** The statistics pipeline of {@code mode}, built once: its workgroup size and bindings follow the mode. */
    private ComputePipeline statsPipeline(String mode) {
        boolean onePass = mode.equals("one-pass") || mode.equals("small");
        int groupSize = mode.equals("small") ? ctx.info().subgroupSize() : statsWorkgroupSize();
        return new ComputePipeline(ctx, compiler, cache, statsShader, statsDefines(mode), SpecConstants.of(0, groupSize, 2, settings.unroll()),
                onePass ? 4 : 2, STATS_PUSH_BYTES);
    }

    /**
     * The most floats the small statistics pipeline takes: one subgroup, {@link #SMALL_STATS_LOADS} vec4 loads an
     * invocation, all issued at once. A one-group plan up to this size runs it, with no round through shared memory.
     */
    int smallStatsLimit() {
        return ctx.info().subgroupSize() * SMALL_STATS_LOADS * 4;
    }

    /** Which statistics pipelines {@code plan} runs: "small", "one-pass" or "two-pass" (first pass and fold). */
    String statsMode(ReducePlan plan) {
        if (!plan.onePass()) {
            return "two-pass";
        }
        return plan.firstPass().get(0).groups() == 1 && plan.n() <= smallStatsLimit() ? "small" : "one-pass";
    }

    /** Constant keys: asked every frame by a statistics node, so no string is built per call. */
    private static String statsKey(String mode) {
        return switch (mode) {
            case "one-pass" -> "stats/one-pass";
            case "small" -> "stats/small";
            case "two-pass" -> "stats/two-pass";
            case "fold" -> "stats/fold";
            default -> throw new IllegalStateException("internal: no statistics mode " + mode);
        };
    }

    /**
     * The statistics kernel's workgroup size: at most 512. It holds more registers than the sum, and at 1024 invocations
     * a group fills an SM's register file alone where two fit at 512 (the dispatch's group count is the sum's: the grid
     * stride follows the group size). On the H200: 1.28 -> 1.08x a sum at 2^24, 1.17 -> 1.05x at 2^26.
     */
    int statsWorkgroupSize() {
        return Math.min(settings.workgroupSize(), 512);
    }

    private Map<String, String> statsDefines(String mode) {
        Map<String, String> defines = new java.util.HashMap<>(statsDefines);
        switch (mode) {
            case "one-pass" -> defines.put("ONE_PASS", "1");
            case "small" -> {
                defines.put("ONE_PASS", "1");
                defines.put("LOADS", Integer.toString(SMALL_STATS_LOADS));
            }
            case "fold" -> defines.put("STATS_FOLD", "1");
            default -> {
            }
        }
        return defines;
    }

    /** Builds the statistics pipelines now instead of at first use. */
    public void prepareStats() {
        statsSets("one-pass");
        statsSets("small");
        statsSets("two-pass");
        statsSets("fold");
    }

    /**
     * Records the statistics reduction (count, sum, min, max, mean, variance in one read) of n floats
     * of {@code input} into one {@link ReduceStats#RECORD_BYTES}-byte record at {@code outputOffset}
     * of {@code output}. Same plan and dispatch shapes as {@link #record}; {@code scratch} holds
     * {@code plan.statsScratchBytes()} and was zeroed once. A two-pass plan records its barrier through {@code between}.
     */
    public void recordStats(VkCommandBuffer cmd, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                            GpuBuffer output, long outputOffset, Runnable between) {
        if (plan.onePass()) {
            recordStatsOnePass(cmd, plan, input, inputOffset, scratch, output, outputOffset);
            return;
        }
        recordStatsPartials(cmd, plan, input, inputOffset, scratch);
        between.run();
        recordStatsFold(cmd, plan, scratch, output, outputOffset);
    }

    /** Outside a frame graph: the same, with its own barrier between the passes. */
    public void recordStats(VkCommandBuffer cmd, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                            GpuBuffer output, long outputOffset) {
        recordStats(cmd, plan, input, inputOffset, scratch, output, outputOffset, () -> barrier(cmd, scratch));
    }

    /** The statistics in one dispatch; the last workgroup to finish folds the records. Bindings written in place: nothing allocated. */
    public void recordStatsOnePass(VkCommandBuffer cmd, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                                   GpuBuffer output, long outputOffset) {
        requireMode(plan, true);
        int groups = plan.firstPass().get(0).groups();
        statsDispatch(cmd, statsMode(plan), groups, plan.n(), 0, bindings.clear()
                .buffer(input, inputOffset, Math.max(4, 4 * plan.n()))
                .buffer(scratch, plan.partialsOffset(), statsPartialBytes(plan))
                .buffer(output, outputOffset, ReduceStats.RECORD_BYTES)
                .buffer(scratch, 0, ReducePlan.TICKET_BYTES));
    }

    /** The statistics' first pass of a two-pass plan: one record per partial in {@code scratch}. */
    public void recordStatsPartials(VkCommandBuffer cmd, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch) {
        requireMode(plan, false);
        List<ReducePlan.Dispatch> first = plan.firstPass();
        for (int i = 0; i < first.size(); i++) {
            ReducePlan.Dispatch d = first.get(i);
            statsDispatch(cmd, "two-pass", d.groups(), d.count(), d.outIndex(), bindings.clear()
                    .buffer(input, inputOffset + 4 * d.elementOffset(), Math.max(4, 4 * d.count()))
                    .buffer(scratch, plan.partialsOffset(), statsPartialBytes(plan)));
        }
    }

    /** The statistics' second pass: one workgroup folds the records into one at {@code outputOffset} of {@code output}. */
    public void recordStatsFold(VkCommandBuffer cmd, ReducePlan plan, GpuBuffer scratch, GpuBuffer output, long outputOffset) {
        requireMode(plan, false);
        statsDispatch(cmd, "fold", 1, plan.partials(), 0, bindings.clear()
                .buffer(scratch, plan.partialsOffset(), statsPartialBytes(plan))
                .buffer(output, outputOffset, ReduceStats.RECORD_BYTES));
    }

    private static long statsPartialBytes(ReducePlan plan) {
        return (long) ReduceStats.RECORD_BYTES * Math.max(1, plan.partials());
    }

    private void statsDispatch(VkCommandBuffer cmd, String mode, int groups, long count, int outIndex, Bindings b) {
        checkAlignment(b);
        DescriptorSets s = statsSets(mode);
        ComputePipeline p = pipelines.get(statsKey(mode));
        long set = s.get(b);
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.handle());
            // By address, as the sum's dispatch: no wrapper per dispatch.
            nvkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, 1, stack.nlong(set), 0, 0L);
            long push = stack.nmalloc(4, STATS_PUSH_BYTES);
            MemoryUtil.memPutInt(push, (int) count);
            MemoryUtil.memPutInt(push + 4, outIndex);
            nvkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, STATS_PUSH_BYTES, push);
            vkCmdDispatch(cmd, groups, 1, 1);
        }
    }

    /** Builds the pipeline for {@code op} now instead of at first use (start-up, benchmarks). */
    public void prepare(ReduceOp op) {
        int modes = settings.largeUnroll() != settings.unroll() ? 4 : 2;
        for (int mode = 0; mode < modes; mode++) {
            sets(op, mode);
        }
    }

    /**
     * Records every dispatch of {@code plan}: n floats of {@code input} from {@code inputOffset} (a multiple
     * of {@code settings().storageAlignment()}) to one float at {@code outputOffset} of {@code output}. {@code scratch} holds
     * {@code plan.scratchBytes()}, was zeroed once when created, and belongs to this call site: the
     * one-pass ticket in it is reset by the kernel itself. A two-pass plan records its
     * compute-to-compute barrier through {@code between} (the frame graph's, or {@link #barrier}).
     */
    public void record(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                       GpuBuffer output, long outputOffset, Runnable between) {
        if (plan.onePass()) {
            recordOnePass(cmd, op, plan, input, inputOffset, scratch, output, outputOffset);
            return;
        }
        recordPartials(cmd, op, plan, input, inputOffset, scratch);
        between.run();
        recordFold(cmd, op, plan, scratch, output, outputOffset);
    }

    /** Outside a frame graph: the same, with its own barrier between the passes. */
    public void record(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                       GpuBuffer output, long outputOffset) {
        record(cmd, op, plan, input, inputOffset, scratch, output, outputOffset, () -> barrier(cmd, scratch));
    }

    /** The barrier between the two passes: partials written by compute, then read by compute. */
    public static void barrier(VkCommandBuffer cmd, GpuBuffer scratch) {
        Barriers.buffer(cmd, scratch.handle(), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    }

    /** First pass of a two-pass plan: n floats to {@code plan.partials()} partials in {@code scratch}. */
    public void recordPartials(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch) {
        requireMode(plan, false);
        List<ReducePlan.Dispatch> first = plan.firstPass();
        for (int i = 0; i < first.size(); i++) {
            ReducePlan.Dispatch d = first.get(i);
            dispatch(cmd, op, mode(plan, false), d.groups(), d.count(), d.outIndex(), 1f, bindings.clear()
                    .buffer(input, inputOffset + 4 * d.elementOffset(), Math.max(4, 4 * d.count()))
                    .buffer(scratch, plan.partialsOffset(), 4L * plan.partials()));
        }
    }

    /** Second pass: one workgroup folds the partials to one float at {@code outputOffset} of {@code output}. */
    public void recordFold(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer scratch, GpuBuffer output, long outputOffset) {
        requireMode(plan, false);
        dispatch(cmd, op, mode(plan, false), 1, plan.partials(), 0, divisor(op, plan.n()), bindings.clear()
                .buffer(scratch, plan.partialsOffset(), 4L * plan.partials())
                .buffer(output, outputOffset, 4));
    }

    /** One dispatch; the last workgroup to finish folds the partials. */
    public void recordOnePass(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer scratch,
                              GpuBuffer output, long outputOffset) {
        requireMode(plan, true);
        int groups = plan.firstPass().get(0).groups();
        dispatch(cmd, op, mode(plan, true), groups, plan.n(), 0, divisor(op, plan.n()), bindings.clear()
                .buffer(input, inputOffset, Math.max(4, 4 * plan.n()))
                .buffer(scratch, plan.partialsOffset(), 4L * groups)
                .buffer(output, outputOffset, 4)
                .buffer(scratch, 0, ReducePlan.TICKET_BYTES));
    }

    private static float divisor(ReduceOp op, long n) {
        return op == ReduceOp.MEAN ? (float) n : 1f;
    }

    private static void requireMode(ReducePlan plan, boolean onePass) {
        if (plan.onePass() != onePass) {
            throw new IllegalArgumentException("plan for n=" + plan.n() + " is " + (plan.onePass() ? "one-pass" : "two-pass"));
        }
    }

    private void dispatch(VkCommandBuffer cmd, ReduceOp op, int mode, int groups, long count, int outIndex, float divisor,
                          Bindings b) {
        checkAlignment(b);
        ComputePipeline p = pipeline(op, mode);

        long set = sets(op, mode).get(b);
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.handle());
            // By address: LongBuffer and ByteBuffer wrappers per dispatch would be garbage every frame.
            nvkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, 1, stack.nlong(set), 0, 0L);
            long push = stack.nmalloc(4, PUSH_BYTES);
            MemoryUtil.memPutInt(push, (int) count);
            MemoryUtil.memPutInt(push + 4, outIndex);
            MemoryUtil.memPutFloat(push + 8, divisor);
            nvkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, PUSH_BYTES, push);
            vkCmdDispatch(cmd, groups, 1, 1);
        }
    }

    /**
     * Every binding offset must be a multiple of the storage alignment: the input's is the caller's
     * (bad input), the scratch offsets are the plan's (a bug if wrong).
     */
    private void checkAlignment(Bindings b) {
        long align = settings.storageAlignment();
        if (b.offset(0) % align != 0) {
            throw new IllegalArgumentException("reduction input offset must be a multiple of " + align + " bytes, got " + b.offset(0));
        }
        for (int i = 1; i < b.size(); i++) {
            if (b.offset(i) % align != 0) {
                throw new IllegalStateException("bug: reduction binding at offset " + b.offset(i) + " is not a multiple of the storage alignment "
                        + align + " (minStorageBufferOffsetAlignment)");
            }
        }
    }

    /**
     * Hot reload, between frames: compiles reduce.comp (and the statistics shader) from the current sources;
     * on a compile error the error is thrown and the running pipelines stay. Otherwise every pipeline is
     * dropped (destruction deferred past the frames in flight) and rebuilt on first use.
     */
    public void reload() {
        build(ReduceOp.SUM, 1).close();
        build(ReduceOp.SUM, 0).close();
        sets.values().forEach(DescriptorSets::close);
        pipelines.values().forEach(ComputePipeline::close);
        sets.clear();
        pipelines.clear();
        java.util.Arrays.fill(pipelineAt, null);
        java.util.Arrays.fill(setsAt, null);
    }

    @Override
    public void close() {
        sets.values().forEach(DescriptorSets::close);
        pipelines.values().forEach(ComputePipeline::close);
    }

    /** The shader's OP specialization constant (reduce_ops.glsl): mean runs as a sum divided by n in the last dispatch. */
    private static int shaderOpConstant(ReduceOp op) {
        return switch (op) {
            case SUM, MEAN -> 0;
            case MIN -> 1;
            case MAX -> 2;
        };
    }
}

package dev.tally.reduce;

import dev.tally.shader.ComputePipeline;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.shader.SpecConstants;
import dev.tally.vk.Barriers;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.util.EnumMap;
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
    private static final int SET_CACHE = 256;
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private final ReduceSettings settings;
    private final Map<ReduceOp, ComputePipeline> pipelines = new EnumMap<>(ReduceOp.class);
    private final Map<ReduceOp, DescriptorSets> sets = new EnumMap<>(ReduceOp.class);

    public Reducer(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache, ReduceSettings settings) {
        if (!ctx.info().subgroupArithmetic()) {
            throw new IllegalStateException("device '" + ctx.info().name() + "' lacks subgroup arithmetic in compute shaders");
        }
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.settings = settings;
    }

    public ReduceSettings settings() {
        return settings;
    }

    public ReducePlan plan(long n) {
        return ReducePlan.of(n, settings);
    }

    private ComputePipeline pipeline(ReduceOp op) {
        ReduceOp key = op == ReduceOp.MEAN ? ReduceOp.SUM : op;
        return pipelines.computeIfAbsent(key, k -> new ComputePipeline(ctx, compiler, cache, "reduce.comp", Map.of(),
                SpecConstants.of(0, settings.workgroupSize(), 1, k.shaderOp, 2, settings.unroll()), 2, PUSH_BYTES));
    }

    private DescriptorSets sets(ReduceOp op) {
        ReduceOp key = op == ReduceOp.MEAN ? ReduceOp.SUM : op;
        return sets.computeIfAbsent(key, k -> new DescriptorSets(ctx, pipeline(k), SET_CACHE));
    }

    /** Builds the pipeline for {@code op} now instead of at first use (start-up, benchmarks). */
    public void prepare(ReduceOp op) {
        sets(op);
    }

    /**
     * First pass: n floats at {@code inputOffset} (a multiple of 16 bytes) to {@code plan.partials()}
     * floats at the start of {@code partials}. For a single-dispatch plan use {@link #recordSingle}.
     */
    public void recordPartials(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer partials) {
        requirePlan(plan, false);
        for (ReducePlan.Dispatch d : plan.firstPass()) {
            dispatch(cmd, op, input, inputOffset + 4 * d.elementOffset(), d.count(), partials, 0, plan.partialsBytes(),
                    d.outIndex(), d.groups(), 1f);
        }
    }

    /** Second pass: one workgroup folds the partials to one float at {@code outputOffset} of {@code output}. */
    public void recordFold(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer partials, GpuBuffer output, long outputOffset) {
        requirePlan(plan, false);
        dispatch(cmd, op, partials, 0, plan.partials(), output, outputOffset, 4, 0, 1, divisor(op, plan.n()));
    }

    /** Small n: one workgroup, one dispatch, straight to the result. */
    public void recordSingle(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer output, long outputOffset) {
        requirePlan(plan, true);
        dispatch(cmd, op, input, inputOffset, plan.n(), output, outputOffset, 4, 0, 1, divisor(op, plan.n()));
    }

    /**
     * Everything for one reduction outside a frame graph, with the compute-to-compute barrier between
     * the passes. {@code partials} must hold {@code plan.partialsBytes()}.
     */
    public void record(VkCommandBuffer cmd, ReduceOp op, ReducePlan plan, GpuBuffer input, long inputOffset, GpuBuffer partials,
                       GpuBuffer output, long outputOffset) {
        if (plan.single()) {
            recordSingle(cmd, op, plan, input, inputOffset, output, outputOffset);
            return;
        }
        recordPartials(cmd, op, plan, input, inputOffset, partials);
        Barriers.buffer(cmd, partials.handle(), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        recordFold(cmd, op, plan, partials, output, outputOffset);
    }

    private static float divisor(ReduceOp op, long n) {
        return op == ReduceOp.MEAN ? (float) n : 1f;
    }

    private static void requirePlan(ReducePlan plan, boolean single) {
        if (plan.single() != single) {
            throw new IllegalArgumentException("plan for n=" + plan.n() + " is " + (plan.single() ? "single-dispatch" : "two-pass"));
        }
    }

    private void dispatch(VkCommandBuffer cmd, ReduceOp op, GpuBuffer input, long inputOffset, long count, GpuBuffer output,
                          long outputOffset, long outputRange, int outIndex, int groups, float divisor) {
        if (inputOffset % 16 != 0) {
            throw new IllegalArgumentException("reduction input offset must be a multiple of 16 bytes, got " + inputOffset);
        }
        ComputePipeline p = pipeline(op);
        long set = sets(op).get(List.of(DescriptorSets.Range.of(input, inputOffset, Math.max(4, 4 * count)),
                DescriptorSets.Range.of(output, outputOffset, outputRange)));
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.handle());
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, stack.longs(set), null);
            ByteBuffer push = stack.malloc(PUSH_BYTES);
            push.putInt(0, (int) count).putInt(4, outIndex).putFloat(8, divisor);
            vkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
            vkCmdDispatch(cmd, groups, 1, 1);
        }
    }

    @Override
    public void close() {
        sets.values().forEach(DescriptorSets::close);
        pipelines.values().forEach(ComputePipeline::close);
    }
}

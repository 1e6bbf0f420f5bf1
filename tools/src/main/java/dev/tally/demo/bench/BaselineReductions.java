package dev.tally.demo.bench;

import dev.tally.internal.shader.ComputePipeline;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The two designs Tally's reduction is measured against: the textbook kernel (512 groups
 * of 256, scalar loads, shared-memory tree, two dispatches) and the textbook recursion (one
 * workgroup per 256 elements, log256(n) dispatches).
 */
public final class BaselineReductions implements AutoCloseable {
    static final int TREE_GROUPS = 512;
    private final ComputePipeline pipeline;
    private final DescriptorSets sets;

    private final int maxGroups;

    public BaselineReductions(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        // A dispatch may not exceed maxComputeWorkGroupCount (65535 on lavapipe): past it the
        // recursion's kernel, which strides, takes more than 256 elements per group.
        maxGroups = ctx.info().maxComputeWorkGroupCount();
        pipeline = new ComputePipeline(ctx, compiler, cache, "tree_reduce.comp", Map.of(), null, 2, 12);
        sets = new DescriptorSets(ctx, pipeline, 64);
    }

    /** Textbook tree: n -> 512 partials -> 1. {@code partials} holds at least 512 floats. */
    void recordTree(VkCommandBuffer cmd, TrackedBuffer input, long n, TrackedBuffer partials, TrackedBuffer output) {
        dispatch(cmd, input, n, partials, TREE_GROUPS);
        barrier(cmd);
        dispatch(cmd, partials, TREE_GROUPS, output, 1);
    }

    /** Recursion: ping-pong between two scratch buffers until one value is left; returns the pass count. */
    int recordLogN(VkCommandBuffer cmd, TrackedBuffer input, long n, TrackedBuffer a, TrackedBuffer b, TrackedBuffer output) {
        long count = n;
        TrackedBuffer src = input;
        TrackedBuffer dst = a;
        int passes = 0;
        do {
            long groups = Math.max(1, Math.min(maxGroups, (count + 255) / 256));
            TrackedBuffer target = groups == 1 ? output : dst;
            if (passes > 0) {
                barrier(cmd);
            }
            dispatch(cmd, src, count, target, (int) groups);
            passes++;
            count = groups;
            src = target;
            dst = target == a ? b : a;
        } while (count > 1);
        return passes;
    }

    private void dispatch(VkCommandBuffer cmd, TrackedBuffer in, long count, TrackedBuffer out, int groups) {
        long set = sets.get(List.of(DescriptorSets.Range.of(in, 0, Math.max(4, 4 * count)),
                DescriptorSets.Range.of(out, 0, 4L * groups)));
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, stack.longs(set), null);
            ByteBuffer push = stack.malloc(12);
            push.putInt(0, (int) count).putInt(4, 0).putFloat(8, 1f);
            vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
            vkCmdDispatch(cmd, groups, 1, 1);
        }
    }

    private static void barrier(VkCommandBuffer cmd) {
        Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    }

    @Override
    public void close() {
        sets.close();
        pipeline.close();
    }
}

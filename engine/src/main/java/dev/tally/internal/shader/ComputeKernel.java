package dev.tally.internal.shader;

import dev.tally.shader.BindingType;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/** A compute pipeline with its descriptor cache: bind storage buffers, push constants, dispatch. */
public final class ComputeKernel implements AutoCloseable {
    private final ComputePipeline pipeline;
    private final DescriptorSets sets;

    public ComputeKernel(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String shader, Map<String, String> defines,
                         SpecConstants spec, int bindings, int pushBytes) {
        this.pipeline = new ComputePipeline(ctx, compiler, cache, shader, defines, spec, bindings, pushBytes);
        this.sets = new DescriptorSets(ctx, pipeline, 64);
    }

    public ComputeKernel(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String shader, Map<String, String> defines,
                         SpecConstants spec, List<BindingType> types, int pushBytes) {
        this.pipeline = new ComputePipeline(ctx, compiler, cache, shader, defines, spec, types, pushBytes);
        this.sets = new DescriptorSets(ctx, pipeline, 64);
    }

    /** Binds {@code ranges} to bindings 0..n-1, pushes {@code push} (may be null) and dispatches. */
    public void dispatch(VkCommandBuffer cmd, List<? extends DescriptorSets.Binding> ranges, ByteBuffer push, int groupsX, int groupsY) {
        dispatch(cmd, sets.get(ranges), push, groupsX, groupsY);
    }

    /** The same with bindings written in place (see {@link Bindings}): no records per dispatch. */
    public void dispatch(VkCommandBuffer cmd, Bindings bindings, ByteBuffer push, int groupsX, int groupsY) {
        dispatch(cmd, sets.get(bindings), push, groupsX, groupsY);
    }

    /**
     * The same with push constants by address ({@code pushBytes} at {@code pushAddress}, e.g. from
     * {@code MemoryStack.nmalloc}; 0 bytes: none): no buffer wrapper per dispatch.
     */
    public void dispatch(VkCommandBuffer cmd, Bindings bindings, long pushAddress, int pushBytes, int groupsX, int groupsY) {
        long set = sets.get(bindings);
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
            nvkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, stack.nlong(set), 0, 0L);
            if (pushBytes > 0) {
                nvkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, pushAddress);
            }
            vkCmdDispatch(cmd, groupsX, groupsY, 1);
        }
    }

    private void dispatch(VkCommandBuffer cmd, long set, ByteBuffer push, int groupsX, int groupsY) {
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
            // The set's handle by address: a LongBuffer wrapper per dispatch would be garbage every frame.
            nvkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, stack.nlong(set), 0, 0L);
            if (push != null) {
                vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
            }
            vkCmdDispatch(cmd, groupsX, groupsY, 1);
        }
    }

    public ComputePipeline pipeline() {
        return pipeline;
    }

    @Override
    public void close() {
        sets.close();
        pipeline.close();
    }
}

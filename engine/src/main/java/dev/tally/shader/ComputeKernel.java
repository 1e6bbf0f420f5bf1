package dev.tally.shader;

import dev.tally.vk.VulkanContext;
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
        long set = sets.get(ranges);
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

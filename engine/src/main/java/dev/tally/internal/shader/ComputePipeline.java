package dev.tally.internal.shader;

import dev.tally.shader.BindingType;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A compute pipeline whose set 0 holds {@code bindings} storage buffers, with a push-constant block
 * of {@code pushBytes} and specialization constants. Created once, reused every frame.
 */
public final class ComputePipeline implements AutoCloseable {
    private final VulkanContext ctx;
    private final String name;
    private final long setLayout;
    private final long layout;
    private final long pipeline;
    private final int bindings;
    private final int pushBytes;

    public ComputePipeline(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String shader,
                           Map<String, String> defines, SpecConstants spec, int bindings, int pushBytes) {
        this(ctx, compiler, cache, shader, defines, spec, java.util.Collections.nCopies(bindings, BindingType.STORAGE_BUFFER), pushBytes);
    }

    /** With set-0 bindings of the given types, in binding order. */
    public ComputePipeline(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String shader,
                           Map<String, String> defines, SpecConstants spec, List<BindingType> types, int pushBytes) {
        int bindings = types.size();
        this.ctx = ctx;
        this.name = shader;
        this.bindings = bindings;
        this.pushBytes = pushBytes;
        byte[] spirv = compiler.spirv(shader, defines);
        try {
            ShaderInterface.requireDeclared(shader, spirv, types, pushBytes);
        } catch (IllegalArgumentException e) {
            // A host's kernel is checked with its own message before this (HostKernel); here the layout is Tally's own.
            throw new IllegalStateException("internal: " + e.getMessage() + " (the pipeline layout Tally gives it)", e);
        }
        VkDevice device = ctx.device();
        try (MemoryStack stack = stackPush()) {
            VkDescriptorSetLayoutBinding.Buffer b = VkDescriptorSetLayoutBinding.calloc(bindings, stack);
            for (int i = 0; i < bindings; i++) {
                b.get(i).binding(i).descriptorType(types.get(i).descriptorType()).descriptorCount(1)
                        .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
            }
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateDescriptorSetLayout(device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default()
                    .pBindings(b), null, p), "vkCreateDescriptorSetLayout(" + shader + ")");
            setLayout = p.get(0);
            VkPipelineLayoutCreateInfo layoutInfo = VkPipelineLayoutCreateInfo.calloc(stack).sType$Default()
                    .pSetLayouts(stack.longs(setLayout));
            if (pushBytes > 0) {
                layoutInfo.pPushConstantRanges(VkPushConstantRange.calloc(1, stack)
                        .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT).offset(0).size(pushBytes));
            }
            check(vkCreatePipelineLayout(device, layoutInfo, null, p), "vkCreatePipelineLayout(" + shader + ")");
            layout = p.get(0);

            long module = ShaderModules.create(device, spirv, shader);
            try {
                VkPipelineShaderStageCreateInfo stage = VkPipelineShaderStageCreateInfo.calloc(stack).sType$Default()
                        .stage(VK_SHADER_STAGE_COMPUTE_BIT).module(module).pName(stack.UTF8("main"))
                        .pSpecializationInfo(specialization(stack, spec));
                VkComputePipelineCreateInfo.Buffer info = VkComputePipelineCreateInfo.calloc(1, stack).sType$Default()
                        .stage(stage).layout(layout);
                check(vkCreateComputePipelines(device, cache == null ? VK_NULL_HANDLE : cache.handle(), info, null, p),
                        "vkCreateComputePipelines(" + shader + ")");
                pipeline = p.get(0);
                ctx.countObject();
            } finally {
                vkDestroyShaderModule(device, module, null);
            }
        }
        ctx.nameObject(VK_OBJECT_TYPE_PIPELINE, pipeline, shader);
    }

    static VkSpecializationInfo specialization(MemoryStack stack, SpecConstants spec) {
        if (spec == null || spec.values().isEmpty()) {
            return null;
        }
        Map<Integer, Integer> values = new TreeMap<>(spec.values());
        VkSpecializationMapEntry.Buffer entries = VkSpecializationMapEntry.calloc(values.size(), stack);
        ByteBuffer data = stack.malloc(4 * values.size());
        int i = 0;
        for (Map.Entry<Integer, Integer> e : values.entrySet()) {
            entries.get(i).constantID(e.getKey()).offset(4 * i).size(4);
            data.putInt(4 * i, e.getValue());
            i++;
        }
        return VkSpecializationInfo.calloc(stack).pMapEntries(entries).pData(data);
    }

    public long handle() { return pipeline; }
    public long layout() { return layout; }
    public long setLayout() { return setLayout; }
    public int bindings() { return bindings; }
    public int pushBytes() { return pushBytes; }
    public String name() { return name; }

    @Override
    public void close() {
        VkDevice device = ctx.device();
        long p = pipeline, l = layout, s = setLayout;
        ctx.defer(() -> {
            vkDestroyPipeline(device, p, null);
            vkDestroyPipelineLayout(device, l, null);
            vkDestroyDescriptorSetLayout(device, s, null);
        });
    }
}

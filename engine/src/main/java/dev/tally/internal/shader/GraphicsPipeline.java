package dev.tally.internal.shader;

import dev.tally.shader.BindingType;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A graphics pipeline for dynamic rendering into one color attachment: no vertex buffers (shaders
 * generate their geometry from gl_VertexIndex), dynamic viewport and scissor, optional alpha
 * blending, set 0 with storage buffers and sampled images visible to both stages, push constants.
 */
public final class GraphicsPipeline implements AutoCloseable {

    private final VulkanContext ctx;
    private final String name;
    private final long setLayout;
    private final long layout;
    private final long pipeline;
    private final DescriptorSets sets;
    private final int pushBytes;

    public GraphicsPipeline(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String vertex, String fragment,
                            Map<String, String> defines, int colorFormat, boolean blend, List<BindingType> bindings, int pushBytes) {
        this(ctx, compiler, cache, vertex, fragment, defines, null, colorFormat, blend, bindings, pushBytes);
    }

    /** With specialization constants for the fragment stage. */
    public GraphicsPipeline(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String vertex, String fragment,
                            Map<String, String> defines, SpecConstants fragmentSpec, int colorFormat, boolean blend,
                            List<BindingType> bindings, int pushBytes) {
        this.ctx = ctx;
        this.name = vertex + "+" + fragment;
        this.pushBytes = pushBytes;
        byte[] vs = compiler.spirv(vertex, defines);
        byte[] fs = compiler.spirv(fragment, defines);
        VkDevice device = ctx.device();
        int stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
        try (MemoryStack stack = stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            VkDescriptorSetLayoutBinding.Buffer b = VkDescriptorSetLayoutBinding.calloc(Math.max(1, bindings.size()), stack);
            for (int i = 0; i < bindings.size(); i++) {
                b.get(i).binding(i).descriptorCount(1).stageFlags(stages).descriptorType(bindings.get(i).descriptorType());
            }
            b.limit(bindings.size());
            check(vkCreateDescriptorSetLayout(device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().pBindings(b), null, p),
                    "vkCreateDescriptorSetLayout(" + name + ")");
            setLayout = p.get(0);
            VkPipelineLayoutCreateInfo layoutInfo = VkPipelineLayoutCreateInfo.calloc(stack).sType$Default().pSetLayouts(stack.longs(setLayout));
            if (pushBytes > 0) {
                layoutInfo.pPushConstantRanges(VkPushConstantRange.calloc(1, stack).stageFlags(stages).offset(0).size(pushBytes));
            }
            check(vkCreatePipelineLayout(device, layoutInfo, null, p), "vkCreatePipelineLayout(" + name + ")");
            layout = p.get(0);
            long vm = ShaderModules.create(ctx.device(), vs, vertex);
            long fm;
            try {
                fm = ShaderModules.create(ctx.device(), fs, fragment);
            } catch (RuntimeException e) {
                vkDestroyShaderModule(device, vm, null);
                throw e;
            }
            try {
                VkPipelineShaderStageCreateInfo.Buffer shaderStages = VkPipelineShaderStageCreateInfo.calloc(2, stack);
                shaderStages.get(0).sType$Default().stage(VK_SHADER_STAGE_VERTEX_BIT).module(vm).pName(stack.UTF8("main"));
                shaderStages.get(1).sType$Default().stage(VK_SHADER_STAGE_FRAGMENT_BIT).module(fm).pName(stack.UTF8("main"))
                        .pSpecializationInfo(ComputePipeline.specialization(stack, fragmentSpec));
                VkPipelineColorBlendAttachmentState.Buffer blendState = VkPipelineColorBlendAttachmentState.calloc(1, stack)
                        .colorWriteMask(0xF).blendEnable(blend);
                if (blend) {
                    blendState.srcColorBlendFactor(VK_BLEND_FACTOR_SRC_ALPHA).dstColorBlendFactor(VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
                            .colorBlendOp(VK_BLEND_OP_ADD).srcAlphaBlendFactor(VK_BLEND_FACTOR_ONE)
                            .dstAlphaBlendFactor(VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA).alphaBlendOp(VK_BLEND_OP_ADD);
                }
                VkPipelineRenderingCreateInfo rendering = VkPipelineRenderingCreateInfo.calloc(stack).sType$Default()
                        .colorAttachmentCount(1).pColorAttachmentFormats(stack.ints(colorFormat));
                VkGraphicsPipelineCreateInfo.Buffer info = VkGraphicsPipelineCreateInfo.calloc(1, stack).sType$Default()
                        .pNext(rendering.address())
                        .pStages(shaderStages)
                        .pVertexInputState(VkPipelineVertexInputStateCreateInfo.calloc(stack).sType$Default())
                        .pInputAssemblyState(VkPipelineInputAssemblyStateCreateInfo.calloc(stack).sType$Default()
                                .topology(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST))
                        .pViewportState(VkPipelineViewportStateCreateInfo.calloc(stack).sType$Default().viewportCount(1).scissorCount(1))
                        .pRasterizationState(VkPipelineRasterizationStateCreateInfo.calloc(stack).sType$Default()
                                .polygonMode(VK_POLYGON_MODE_FILL).cullMode(VK_CULL_MODE_NONE).frontFace(VK_FRONT_FACE_COUNTER_CLOCKWISE)
                                .lineWidth(1f))
                        .pMultisampleState(VkPipelineMultisampleStateCreateInfo.calloc(stack).sType$Default()
                                .rasterizationSamples(VK_SAMPLE_COUNT_1_BIT))
                        .pColorBlendState(VkPipelineColorBlendStateCreateInfo.calloc(stack).sType$Default().pAttachments(blendState))
                        .pDynamicState(VkPipelineDynamicStateCreateInfo.calloc(stack).sType$Default()
                                .pDynamicStates(stack.ints(VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR)))
                        .layout(layout);
                check(vkCreateGraphicsPipelines(device, cache == null ? VK_NULL_HANDLE : cache.handle(), info, null, p),
                        "vkCreateGraphicsPipelines(" + name + ")");
                pipeline = p.get(0);
                ctx.countObject();
            } finally {
                vkDestroyShaderModule(device, vm, null);
                vkDestroyShaderModule(device, fm, null);
            }
        }
        ctx.nameObject(VK_OBJECT_TYPE_PIPELINE, pipeline, name);
        sets = new DescriptorSets(ctx, name, setLayout, Math.max(1, bindings.size()), 64);
    }

    /**
     * Binds the pipeline and set 0, sets viewport and scissor to {@code width x height}, pushes
     * {@code push} (may be null) and draws {@code vertices} generated vertices.
     */
    public void draw(VkCommandBuffer cmd, List<? extends DescriptorSets.Binding> bindings, ByteBuffer push, int width, int height, int vertices) {
        draw(cmd, bindings, push == null ? 0L : org.lwjgl.system.MemoryUtil.memAddress(push), push == null ? 0 : push.remaining(), width, height,
                vertices);
    }

    /**
     * As {@link #draw(VkCommandBuffer, List, ByteBuffer, int, int, int)}, with {@code pushLength} bytes of push
     * constants at address {@code push} (0: none). The structs are written by address (static setters): a HUD
     * draws many times a frame, and wrapper objects would be garbage each time.
     */
    public void draw(VkCommandBuffer cmd, List<? extends DescriptorSets.Binding> bindings, long push, int pushLength, int width, int height,
                     int vertices) {
        drawWithSet(cmd, bindings.isEmpty() ? VK_NULL_HANDLE : sets.get(bindings), push, pushLength, width, height, vertices);
    }

    /**
     * As {@link #draw(VkCommandBuffer, List, long, int, int, int, int)}, with the bindings written in place ({@link Bindings}:
     * a pass keeps one and refills it each frame), so that binding allocates nothing.
     */
    public void draw(VkCommandBuffer cmd, Bindings bindings, long push, int pushLength, int width, int height, int vertices) {
        drawWithSet(cmd, bindings.size() == 0 ? VK_NULL_HANDLE : sets.get(bindings), push, pushLength, width, height, vertices);
    }

    /**
     * Binds the pipeline and set 0 and sets viewport and scissor to {@code width x height}: the state every draw of a pass
     * shares, set once before its {@link #drawBound} calls (a HUD draws a few dozen times a pass, and binding per draw
     * cost a descriptor-set lookup and four driver calls each time).
     */
    public void bind(VkCommandBuffer cmd, Bindings bindings, int width, int height) {
        bindWithSet(cmd, bindings.size() == 0 ? VK_NULL_HANDLE : sets.get(bindings), width, height);
    }

    /**
     * One draw of {@code vertices} generated vertices with {@code pushLength} bytes of push constants at {@code push} (0: none),
     * on the state {@link #bind} set: call it only after {@code bind} in the same pass's commands.
     */
    public void drawBound(VkCommandBuffer cmd, long push, int pushLength, int vertices) {
        if (push != 0 && pushBytes > 0) {
            nvkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, pushLength, push);
        }
        vkCmdDraw(cmd, vertices, 1, 0, 0);
    }

    private void drawWithSet(VkCommandBuffer cmd, long descriptorSet, long push, int pushLength, int width, int height, int vertices) {
        bindWithSet(cmd, descriptorSet, width, height);
        drawBound(cmd, push, pushLength, vertices);
    }

    private void bindWithSet(VkCommandBuffer cmd, long descriptorSet, int width, int height) {
        try (MemoryStack stack = stackPush()) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            if (descriptorSet != VK_NULL_HANDLE) {
                long set = stack.nmalloc(8, 8);
                org.lwjgl.system.MemoryUtil.memPutLong(set, descriptorSet);
                nvkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, set, 0, 0L);
            }
            long viewport = stack.ncalloc(VkViewport.ALIGNOF, 1, VkViewport.SIZEOF);
            VkViewport.nwidth(viewport, width);
            VkViewport.nheight(viewport, height);
            VkViewport.nmaxDepth(viewport, 1);
            nvkCmdSetViewport(cmd, 0, 1, viewport);
            long scissor = stack.ncalloc(VkRect2D.ALIGNOF, 1, VkRect2D.SIZEOF);
            VkExtent2D.nwidth(scissor + VkRect2D.EXTENT, width);
            VkExtent2D.nheight(scissor + VkRect2D.EXTENT, height);
            nvkCmdSetScissor(cmd, 0, 1, scissor);
        }
    }

    public String name() {
        return name;
    }

    @Override
    public void close() {
        sets.close();
        VkDevice device = ctx.device();
        long p = pipeline, l = layout, s = setLayout;
        ctx.defer(() -> {
            vkDestroyPipeline(device, p, null);
            vkDestroyPipelineLayout(device, l, null);
            vkDestroyDescriptorSetLayout(device, s, null);
        });
    }
}

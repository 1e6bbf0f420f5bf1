package dev.tally.internal.exposure;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

import dev.tally.internal.shader.ComputePipeline;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.ShaderCompiler;
import dev.tally.internal.shader.SpecConstants;
import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.vulkan.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Just enough Vulkan to run the auto-exposure shaders in a test: images with uploads, host-visible
 * storage buffers, the histogram pipeline (storage image + optional mask sampler) and the tone-mapping
 * graphics pipeline with dynamic rendering; the buffer-only passes use the engine's ComputePipeline.
 * Everything made here is destroyed by {@link #close()} (after the device is idle).
 */
final class ExposureGpuHarness implements AutoCloseable {
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final VkDevice device;
    private final Deque<Runnable> cleanup = new ArrayDeque<>();

    record Image(long handle, long view, int format, int width, int height) {
    }

    /** A compute or graphics pipeline with its own set layout, pool and one descriptor set. */
    record Pipeline(long pipeline, long layout, long setLayout, long set) {
    }

    ExposureGpuHarness(VulkanContext ctx, ShaderCompiler compiler) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.device = ctx.device();
    }

    VulkanContext context() {
        return ctx;
    }

    // ---- buffers -----------------------------------------------------------------------------------

    /** A mapped, host-visible storage buffer (READBACK memory), zero-filled. */
    TrackedBuffer hostBuffer(String name, long bytes) {
        TrackedBuffer b = new TrackedBuffer(ctx, name, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
                | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        cleanup.push(b::close);
        MemoryUtil.memSet(b.mappedAddress(), 0, bytes);
        b.flush(0, bytes);
        return b;
    }

    static void writeFloats(TrackedBuffer b, float[] values) {
        for (int i = 0; i < values.length; i++) {
            MemoryUtil.memPutFloat(b.mappedAddress() + 4L * i, values[i]);
        }
        b.flush(0, 4L * values.length);
    }

    static void writeInts(TrackedBuffer b, int[] values) {
        for (int i = 0; i < values.length; i++) {
            MemoryUtil.memPutInt(b.mappedAddress() + 4L * i, values[i]);
        }
        b.flush(0, 4L * values.length);
    }

    static float[] readFloats(TrackedBuffer b, int count) {
        b.invalidate(0, 4L * count);
        float[] out = new float[count];
        for (int i = 0; i < count; i++) {
            out[i] = MemoryUtil.memGetFloat(b.mappedAddress() + 4L * i);
        }
        return out;
    }

    static int[] readInts(TrackedBuffer b, int count) {
        b.invalidate(0, 4L * count);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = MemoryUtil.memGetInt(b.mappedAddress() + 4L * i);
        }
        return out;
    }

    // ---- images ------------------------------------------------------------------------------------

    Image image(String name, int format, int width, int height, int usage) {
        try (MemoryStack stack = stackPush()) {
            VkImageCreateInfo info = VkImageCreateInfo.calloc(stack).sType$Default().imageType(VK_IMAGE_TYPE_2D)
                    .format(format).extent(e -> e.width(width).height(height).depth(1)).mipLevels(1).arrayLayers(1)
                    .samples(VK_SAMPLE_COUNT_1_BIT).tiling(VK_IMAGE_TILING_OPTIMAL).usage(usage)
                    .sharingMode(VK_SHARING_MODE_EXCLUSIVE).initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
            VmaAllocationCreateInfo alloc = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO);
            LongBuffer pImage = stack.mallocLong(1);
            PointerBuffer pAlloc = stack.mallocPointer(1);
            check(vmaCreateImage(ctx.allocator(), info, alloc, pImage, pAlloc, null), "vmaCreateImage(" + name + ")");
            long image = pImage.get(0);
            long allocation = pAlloc.get(0);
            cleanup.push(() -> vmaDestroyImage(ctx.allocator(), image, allocation));
            ctx.nameObject(VK_OBJECT_TYPE_IMAGE, image, name);
            VkImageViewCreateInfo viewInfo = VkImageViewCreateInfo.calloc(stack).sType$Default().image(image)
                    .viewType(VK_IMAGE_VIEW_TYPE_2D).format(format)
                    .subresourceRange(r -> r.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1));
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateImageView(device, viewInfo, null, p), "vkCreateImageView(" + name + ")");
            long view = p.get(0);
            cleanup.push(() -> vkDestroyImageView(device, view, null));
            return new Image(image, view, format, width, height);
        }
    }

    static void imageBarrier(VkCommandBuffer cmd, Image image, int oldLayout, int newLayout,
                             long srcStage, long srcAccess, long dstStage, long dstAccess) {
        try (MemoryStack stack = stackPush()) {
            VkImageMemoryBarrier2.Buffer b = VkImageMemoryBarrier2.calloc(1, stack).sType$Default()
                    .srcStageMask(srcStage).srcAccessMask(srcAccess).dstStageMask(dstStage).dstAccessMask(dstAccess)
                    .oldLayout(oldLayout).newLayout(newLayout)
                    .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                    .image(image.handle())
                    .subresourceRange(r -> r.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1));
            vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(b));
        }
    }

    private static VkBufferImageCopy.Buffer wholeImage(MemoryStack stack, Image image) {
        return VkBufferImageCopy.calloc(1, stack)
                .imageSubresource(s -> s.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).mipLevel(0).baseArrayLayer(0).layerCount(1))
                .imageExtent(e -> e.width(image.width()).height(image.height()).depth(1));
    }

    /** Uploads tightly packed texels and leaves the image in {@code finalLayout}, readable by compute and fragment shaders. */
    void upload(Image image, ByteBuffer texels, int finalLayout) {
        TrackedBuffer staging = new TrackedBuffer(ctx, "test.staging", texels.remaining(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
        try {
            staging.write(texels, 0);
            ctx.submitAndWait(cmd -> {
                imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                        VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
                try (MemoryStack stack = stackPush()) {
                    vkCmdCopyBufferToImage(cmd, staging.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            wholeImage(stack, image));
                }
                imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, finalLayout,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
            });
        } finally {
            staging.close();
        }
    }

    static ByteBuffer floats(float[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
        b.asFloatBuffer().put(values);
        return b;
    }

    static ByteBuffer shorts(short[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(2 * values.length).order(ByteOrder.nativeOrder());
        b.asShortBuffer().put(values);
        return b;
    }

    static ByteBuffer ints(int[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
        b.asIntBuffer().put(values);
        return b;
    }

    long nearestSampler() {
        try (MemoryStack stack = stackPush()) {
            VkSamplerCreateInfo info = VkSamplerCreateInfo.calloc(stack).sType$Default()
                    .magFilter(VK_FILTER_NEAREST).minFilter(VK_FILTER_NEAREST).mipmapMode(VK_SAMPLER_MIPMAP_MODE_NEAREST)
                    .addressModeU(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).addressModeV(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                    .addressModeW(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).maxLod(0f);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSampler(device, info, null, p), "vkCreateSampler");
            long sampler = p.get(0);
            cleanup.push(() -> vkDestroySampler(device, sampler, null));
            return sampler;
        }
    }

    // ---- pipelines ---------------------------------------------------------------------------------

    /** An engine ComputePipeline (storage buffers 0..n-1) with its descriptor-set cache. */
    record EnginePass(ComputePipeline pipeline, DescriptorSets sets) {
        void dispatch(VkCommandBuffer cmd, List<TrackedBuffer> buffers, ByteBuffer push) {
            List<DescriptorSets.Range> ranges = buffers.stream().map(b -> DescriptorSets.Range.of(b, 0, b.size())).toList();
            long set = sets.get(ranges);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
            try (MemoryStack stack = stackPush()) {
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, stack.longs(set), null);
            }
            if (push != null) {
                vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
            }
            vkCmdDispatch(cmd, 1, 1, 1);
        }
    }

    EnginePass enginePass(String shader, Map<String, String> defines, int bindings, int pushBytes) {
        ComputePipeline p = new ComputePipeline(ctx, compiler, null, shader, defines, SpecConstants.of(), bindings, pushBytes);
        DescriptorSets sets = new DescriptorSets(ctx, p, 4);
        cleanup.push(p::close);
        cleanup.push(sets::close);
        return new EnginePass(p, sets);
    }

    private long module(String shader, Map<String, String> defines) {
        byte[] spirv = compiler.compile(shader, defines);
        try (MemoryStack stack = stackPush()) {
            ByteBuffer code = stack.malloc(spirv.length).put(spirv).flip();
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateShaderModule(device, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(code), null, p),
                    "vkCreateShaderModule(" + shader + ")");
            return p.get(0);
        }
    }

    private static VkSpecializationInfo specialization(MemoryStack stack, int[] idValuePairs) {
        if (idValuePairs.length == 0) {
            return null;
        }
        int n = idValuePairs.length / 2;
        VkSpecializationMapEntry.Buffer entries = VkSpecializationMapEntry.calloc(n, stack);
        ByteBuffer data = stack.malloc(4 * n);
        for (int i = 0; i < n; i++) {
            entries.get(i).constantID(idValuePairs[2 * i]).offset(4 * i).size(4);
            data.putInt(4 * i, idValuePairs[2 * i + 1]);
        }
        return VkSpecializationInfo.calloc(stack).pMapEntries(entries).pData(data);
    }

    /** Set layout, pool with one set, pipeline layout. types[i] is binding i's descriptor type. */
    private long[] layoutAndSet(int[] types, int stages, int pushBytes, int pushStages) {
        try (MemoryStack stack = stackPush()) {
            VkDescriptorSetLayoutBinding.Buffer b = VkDescriptorSetLayoutBinding.calloc(types.length, stack);
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(types.length, stack);
            for (int i = 0; i < types.length; i++) {
                b.get(i).binding(i).descriptorType(types[i]).descriptorCount(1).stageFlags(stages);
                sizes.get(i).type(types[i]).descriptorCount(1);
            }
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateDescriptorSetLayout(device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().pBindings(b), null, p),
                    "vkCreateDescriptorSetLayout");
            long setLayout = p.get(0);
            cleanup.push(() -> vkDestroyDescriptorSetLayout(device, setLayout, null));
            check(vkCreateDescriptorPool(device, VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(1).pPoolSizes(sizes), null, p),
                    "vkCreateDescriptorPool");
            long pool = p.get(0);
            cleanup.push(() -> vkDestroyDescriptorPool(device, pool, null));
            check(vkAllocateDescriptorSets(device, VkDescriptorSetAllocateInfo.calloc(stack).sType$Default().descriptorPool(pool)
                    .pSetLayouts(stack.longs(setLayout)), p), "vkAllocateDescriptorSets");
            long set = p.get(0);
            VkPipelineLayoutCreateInfo layoutInfo = VkPipelineLayoutCreateInfo.calloc(stack).sType$Default().pSetLayouts(stack.longs(setLayout));
            if (pushBytes > 0) {
                layoutInfo.pPushConstantRanges(VkPushConstantRange.calloc(1, stack).stageFlags(pushStages).offset(0).size(pushBytes));
            }
            check(vkCreatePipelineLayout(device, layoutInfo, null, p), "vkCreatePipelineLayout");
            long layout = p.get(0);
            cleanup.push(() -> vkDestroyPipelineLayout(device, layout, null));
            return new long[]{setLayout, set, layout};
        }
    }

    /** histogram.comp ACCUMULATE: binding 0 storage image, 1 accumulator, 2 mask (MASK only). */
    Pipeline histogramPipeline(ExposureShaderLayout.HdrFormat format, Metering metering, int rows) {
        int[] types = metering == Metering.MASK
                ? new int[]{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}
                : new int[]{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
        long[] lsl = layoutAndSet(types, VK_SHADER_STAGE_COMPUTE_BIT, ExposureShaderLayout.HISTOGRAM_PUSH_BYTES, VK_SHADER_STAGE_COMPUTE_BIT);
        long module = module(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.histogramDefines(format, metering));
        try (MemoryStack stack = stackPush()) {
            VkPipelineShaderStageCreateInfo stage = VkPipelineShaderStageCreateInfo.calloc(stack).sType$Default()
                    .stage(VK_SHADER_STAGE_COMPUTE_BIT).module(module).pName(stack.UTF8("main"))
                    .pSpecializationInfo(specialization(stack, new int[]{ExposureShaderLayout.SPEC_ROWS_PER_INVOCATION, rows}));
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateComputePipelines(device, VK_NULL_HANDLE, VkComputePipelineCreateInfo.calloc(1, stack).sType$Default()
                    .stage(stage).layout(lsl[2]), null, p), "vkCreateComputePipelines(histogram)");
            long pipeline = p.get(0);
            cleanup.push(() -> vkDestroyPipeline(device, pipeline, null));
            return new Pipeline(pipeline, lsl[2], lsl[0], lsl[1]);
        } finally {
            vkDestroyShaderModule(device, module, null);
        }
    }

    void bindHistogram(Pipeline p, Image hdr, TrackedBuffer accumulator, Image mask, long sampler) {
        try (MemoryStack stack = stackPush()) {
            VkWriteDescriptorSet.Buffer w = VkWriteDescriptorSet.calloc(mask == null ? 2 : 3, stack);
            w.get(0).sType$Default().dstSet(p.set()).dstBinding(0).descriptorCount(1).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                    .pImageInfo(VkDescriptorImageInfo.calloc(1, stack).imageView(hdr.view()).imageLayout(VK_IMAGE_LAYOUT_GENERAL));
            w.get(1).sType$Default().dstSet(p.set()).dstBinding(1).descriptorCount(1).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                    .pBufferInfo(VkDescriptorBufferInfo.calloc(1, stack).buffer(accumulator.handle()).offset(0).range(VK_WHOLE_SIZE));
            if (mask != null) {
                w.get(2).sType$Default().dstSet(p.set()).dstBinding(2).descriptorCount(1).descriptorType(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
                        .pImageInfo(VkDescriptorImageInfo.calloc(1, stack).sampler(sampler).imageView(mask.view())
                                .imageLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
            }
            vkUpdateDescriptorSets(device, w, null);
        }
    }

    void dispatchHistogram(VkCommandBuffer cmd, Pipeline p, int width, int height, int rows, ExposureSettings s) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline());
        try (MemoryStack stack = stackPush()) {
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, stack.longs(p.set()), null);
            ByteBuffer push = stack.malloc(ExposureShaderLayout.HISTOGRAM_PUSH_BYTES);
            ExposureShaderLayout.putHistogramPush(push, s);
            vkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
        }
        int[] groups = ExposureShaderLayout.histogramGroupCounts(width, height, rows);
        vkCmdDispatch(cmd, groups[0], groups[1], 1);
    }

    /** tonemap.vert + tonemap.frag into one colour attachment of {@code format}: binding 0 HDR sampler, 1 exposure record. */
    Pipeline tonemapPipeline(int colorFormat, boolean encodeSrgb, float acesInputScale) {
        long[] lsl = layoutAndSet(new int[]{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                VK_SHADER_STAGE_FRAGMENT_BIT, 0, 0);
        long vert = module(ExposureShaderLayout.TONEMAP_VERTEX, Map.of());
        long frag = module(ExposureShaderLayout.TONEMAP_FRAGMENT, Map.of());
        try (MemoryStack stack = stackPush()) {
            VkPipelineShaderStageCreateInfo.Buffer stages = VkPipelineShaderStageCreateInfo.calloc(2, stack);
            stages.get(0).sType$Default().stage(VK_SHADER_STAGE_VERTEX_BIT).module(vert).pName(stack.UTF8("main"));
            stages.get(1).sType$Default().stage(VK_SHADER_STAGE_FRAGMENT_BIT).module(frag).pName(stack.UTF8("main"))
                    .pSpecializationInfo(specialization(stack, new int[]{
                            ExposureShaderLayout.SPEC_TONEMAP_ENCODE_SRGB, encodeSrgb ? VK_TRUE : VK_FALSE,
                            ExposureShaderLayout.SPEC_TONEMAP_ACES_INPUT_SCALE, Float.floatToRawIntBits(acesInputScale)}));
            VkPipelineRenderingCreateInfo rendering = VkPipelineRenderingCreateInfo.calloc(stack).sType$Default()
                    .colorAttachmentCount(1).pColorAttachmentFormats(stack.ints(colorFormat));
            VkGraphicsPipelineCreateInfo.Buffer info = VkGraphicsPipelineCreateInfo.calloc(1, stack).sType$Default()
                    .pNext(rendering).pStages(stages)
                    .pVertexInputState(VkPipelineVertexInputStateCreateInfo.calloc(stack).sType$Default())
                    .pInputAssemblyState(VkPipelineInputAssemblyStateCreateInfo.calloc(stack).sType$Default()
                            .topology(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST))
                    .pViewportState(VkPipelineViewportStateCreateInfo.calloc(stack).sType$Default().viewportCount(1).scissorCount(1))
                    .pRasterizationState(VkPipelineRasterizationStateCreateInfo.calloc(stack).sType$Default()
                            .polygonMode(VK_POLYGON_MODE_FILL).cullMode(VK_CULL_MODE_NONE)
                            .frontFace(VK_FRONT_FACE_COUNTER_CLOCKWISE).lineWidth(1f))
                    .pMultisampleState(VkPipelineMultisampleStateCreateInfo.calloc(stack).sType$Default()
                            .rasterizationSamples(VK_SAMPLE_COUNT_1_BIT))
                    .pColorBlendState(VkPipelineColorBlendStateCreateInfo.calloc(stack).sType$Default()
                            .pAttachments(VkPipelineColorBlendAttachmentState.calloc(1, stack).colorWriteMask(0xF)))
                    .pDynamicState(VkPipelineDynamicStateCreateInfo.calloc(stack).sType$Default()
                            .pDynamicStates(stack.ints(VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR)))
                    .layout(lsl[2]);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, info, null, p), "vkCreateGraphicsPipelines(tonemap)");
            long pipeline = p.get(0);
            cleanup.push(() -> vkDestroyPipeline(device, pipeline, null));
            return new Pipeline(pipeline, lsl[2], lsl[0], lsl[1]);
        } finally {
            vkDestroyShaderModule(device, vert, null);
            vkDestroyShaderModule(device, frag, null);
        }
    }

    void bindTonemap(Pipeline p, Image hdr, long sampler, TrackedBuffer exposure) {
        try (MemoryStack stack = stackPush()) {
            VkWriteDescriptorSet.Buffer w = VkWriteDescriptorSet.calloc(2, stack);
            w.get(0).sType$Default().dstSet(p.set()).dstBinding(0).descriptorCount(1).descriptorType(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
                    .pImageInfo(VkDescriptorImageInfo.calloc(1, stack).sampler(sampler).imageView(hdr.view())
                            .imageLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
            w.get(1).sType$Default().dstSet(p.set()).dstBinding(1).descriptorCount(1).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                    .pBufferInfo(VkDescriptorBufferInfo.calloc(1, stack).buffer(exposure.handle()).offset(0).range(VK_WHOLE_SIZE));
            vkUpdateDescriptorSets(device, w, null);
        }
    }

    /** Draws the full-screen triangle into {@code target} and copies it to {@code readback} (tightly packed). */
    void drawTonemap(Pipeline p, Image target, TrackedBuffer readback) {
        ctx.submitAndWait(cmd -> {
            imageBarrier(cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                    VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
            try (MemoryStack stack = stackPush()) {
                VkRenderingAttachmentInfo.Buffer color = VkRenderingAttachmentInfo.calloc(1, stack).sType$Default()
                        .imageView(target.view()).imageLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
                        .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR).storeOp(VK_ATTACHMENT_STORE_OP_STORE);
                color.clearValue().color().float32(0, 0.5f).float32(1, 0.5f).float32(2, 0.5f).float32(3, 0f);
                vkCmdBeginRendering(cmd, VkRenderingInfo.calloc(stack).sType$Default()
                        .renderArea(a -> a.extent().set(target.width(), target.height())).layerCount(1).pColorAttachments(color));
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p.pipeline());
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p.layout(), 0, stack.longs(p.set()), null);
                vkCmdSetViewport(cmd, 0, VkViewport.calloc(1, stack).x(0).y(0).width(target.width()).height(target.height())
                        .minDepth(0).maxDepth(1));
                vkCmdSetScissor(cmd, 0, VkRect2D.calloc(1, stack).extent(e -> e.set(target.width(), target.height())));
                vkCmdDraw(cmd, 3, 1, 0, 0);
                vkCmdEndRendering(cmd);
                imageBarrier(cmd, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
                vkCmdCopyImageToBuffer(cmd, target.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle(),
                        wholeImage(stack, target));
            }
            Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
    }

    /** Compute writes (storage buffers) -> the next compute pass's reads and writes. */
    static void computeToCompute(VkCommandBuffer cmd) {
        Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    }

    static void computeToHost(VkCommandBuffer cmd) {
        Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    }

    @Override
    public void close() {
        ctx.waitIdle();
        while (!cleanup.isEmpty()) {
            cleanup.pop().run();
        }
        ctx.retire();
    }
}

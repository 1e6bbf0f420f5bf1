package dev.tally.internal.readback;

import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.shader.BindingType;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;
import java.util.Map;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The readback rings' capture copies in compute (readback_gather.comp), one engine's for all its rings: a region is one
 * small dispatch, which runs beside the compute passes before it where a transfer command would wait for them. Buffer
 * regions bind their source and the slot whole (a region's offset need not meet the storage-buffer offset alignment) and
 * pass offsets in words; texels of a float storage format ({@link #gathers(int)}) are read and packed back into the
 * image's own bytes, laid out as a copy lays them. Pipelines are built on first use and destroyed with the engine.
 */
public final class ReadbackGather implements AutoCloseable {
    static final String SHADER = "readback_gather.comp";
    /** The shader's defines for each image format gathered, by VkFormat (format qualifier, packing): the SPIR-V variants the build makes. */
    public static final Map<Integer, Map<String, String>> IMAGE_DEFINES = Map.of(
            VK_FORMAT_R16G16B16A16_SFLOAT, Map.of("IMAGE_FORMAT", "rgba16f", "PACK", "1"),
            VK_FORMAT_B10G11R11_UFLOAT_PACK32, Map.of("IMAGE_FORMAT", "r11f_g11f_b10f", "PACK", "2"),
            VK_FORMAT_R32G32B32A32_SFLOAT, Map.of("IMAGE_FORMAT", "rgba32f", "PACK", "3"));
    private static final int PUSH_BYTES = 32;
    private static final int GROUP = 64, MAX_GROUPS = 64;
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    /** By {@link #index}: 0 buffers, then each image format; built on first use. */
    private final ComputeKernel[] kernels = new ComputeKernel[4];
    private final Bindings bindings = new Bindings(2);

    public ReadbackGather(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
    }

    /** Whether an image of {@code vkFormat} can be gathered (one of {@link #IMAGE_DEFINES}: its bytes rebuilt exactly from what a shader reads). */
    static boolean gathers(int vkFormat) {
        return index(vkFormat) > 0;
    }

    /** 0 for buffers (format 0), 1..3 for the image formats gathered, -1 for any other. */
    private static int index(int vkFormat) {
        return switch (vkFormat) {
            case 0 -> 0;
            case VK_FORMAT_R16G16B16A16_SFLOAT -> 1;
            case VK_FORMAT_R32G32B32A32_SFLOAT -> 2;
            case VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> 3;
            default -> -1;
        };
    }

    /** Copies {@code bytes} (whole words) from {@code srcOffset} of {@code src} to {@code dstOffset} of {@code slot}; the sequence too where asked. */
    void copyBuffer(VkCommandBuffer cmd, GpuBuffer src, long srcOffset, GpuBuffer slot, long dstOffset, long bytes, int sequence, boolean writeSequence) {
        dispatch(cmd, 0, bindings.clear().buffer(src, 0, src.size()).buffer(slot, 0, slot.size()), (int) (srcOffset / 4), dstOffset, bytes / 4,
                sequence, writeSequence, 0, 0, 1);
    }

    /** Copies the texels of the rectangle in the image's own bytes, rows in order, to {@code dstOffset} of {@code slot}; the sequence too where asked. */
    void copyTexels(VkCommandBuffer cmd, GpuImage src, int x, int y, int width, int height, GpuBuffer slot, long dstOffset, int sequence,
                    boolean writeSequence) {
        dispatch(cmd, src.format(), bindings.clear().storageImage(src).buffer(slot, 0, slot.size()), 0, dstOffset, (long) width * height, sequence,
                writeSequence, x, y, width);
    }

    private void dispatch(VkCommandBuffer cmd, int format, Bindings b, int srcWord, long dstOffset, long count, int sequence, boolean writeSequence,
                          int x, int y, int width) {
        int groups = (int) Math.max(1, Math.min(MAX_GROUPS, (count + GROUP - 1) / GROUP));
        try (MemoryStack stack = stackPush()) {
            long push = stack.nmalloc(4, PUSH_BYTES);
            MemoryUtil.memPutInt(push, srcWord);
            MemoryUtil.memPutInt(push + 4, (int) (dstOffset / 4));
            MemoryUtil.memPutInt(push + 8, (int) count);
            MemoryUtil.memPutInt(push + 12, sequence);
            MemoryUtil.memPutInt(push + 16, writeSequence ? 1 : 0);
            MemoryUtil.memPutInt(push + 20, width);
            MemoryUtil.memPutInt(push + 24, x);
            MemoryUtil.memPutInt(push + 28, y);
            kernel(format).dispatch(cmd, b, push, PUSH_BYTES, groups, 1);
        }
    }

    private ComputeKernel kernel(int format) {
        int i = index(format);
        if (i < 0) {
            throw new IllegalStateException("internal: format " + format + " is not gathered; the capture should have copied it");
        }
        if (kernels[i] == null) {
            kernels[i] = format == 0
                    ? new ComputeKernel(ctx, compiler, cache, SHADER, Map.of(), null, List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER), PUSH_BYTES)
                    : new ComputeKernel(ctx, compiler, cache, SHADER, IMAGE_DEFINES.get(format), null,
                    List.of(BindingType.STORAGE_IMAGE, BindingType.STORAGE_BUFFER), PUSH_BYTES);
        }
        return kernels[i];
    }

    @Override
    public void close() {
        for (int i = 0; i < kernels.length; i++) {
            if (kernels[i] != null) {
                kernels[i].close();
                kernels[i] = null;
            }
        }
    }
}

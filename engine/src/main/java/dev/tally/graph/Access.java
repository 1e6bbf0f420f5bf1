package dev.tally.graph;


import static org.lwjgl.vulkan.KHRSwapchain.VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * How a pass uses a resource: the pipeline stages, the memory accesses, the image layout it needs and
 * whether it writes. Barriers are computed from these; passes never write barriers by hand. The
 * constants cover what Tally's passes do; a pass with another need makes its own.
 *
 * @param name   for errors and graph dumps, e.g. {@code compute-read}
 * @param stages VkPipelineStageFlags2 of the use
 * @param access VkAccessFlags2 of the use
 * @param layout the VkImageLayout an image must be in (ignored for buffers; UNDEFINED where the use has none)
 * @param write  whether the use writes: a later reader is ordered after it, a later writer after every reader
 */
public record Access(String name, long stages, long access, int layout, boolean write) {
    /** No use: the state of a resource nothing has touched yet. */
    public static final Access NONE = new Access("none", VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED, false);

    /** A storage buffer or storage image read by a compute shader. */
    public static final Access COMPUTE_READ = new Access("compute-read", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_GENERAL, false);
    /** A storage buffer or storage image written by a compute shader, earlier contents not read. */
    public static final Access COMPUTE_WRITE = new Access("compute-write", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, true);
    /** A storage buffer or storage image read and written by a compute shader (accumulators, in-place updates). */
    public static final Access COMPUTE_READ_WRITE = new Access("compute-read-write", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, true);
    /** A uniform buffer read by a compute shader. */
    public static final Access COMPUTE_UNIFORM = new Access("compute-uniform", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_UNIFORM_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, false);
    /** An image sampled (or texelFetched through a sampler) by a compute shader. */
    public static final Access COMPUTE_SAMPLED = new Access("compute-sampled", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false);
    /** Storage buffers read by vertex or fragment shaders (e.g. a HUD drawing a GPU-side histogram). */
    public static final Access GRAPHICS_READ = new Access("graphics-read",
            VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, false);
    /** An image sampled by a fragment shader (the tonemap pass's HDR input). */
    public static final Access FRAGMENT_SAMPLED = new Access("fragment-sampled", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false);
    /** A cleared color attachment: earlier contents are not read. */
    public static final Access COLOR_ATTACHMENT = new Access("color-attachment", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true);
    /** A loaded color attachment (drawn over, blended): earlier contents are read. */
    public static final Access COLOR_ATTACHMENT_LOAD = new Access("color-attachment-load", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true);
    /** The source of a copy or blit. */
    public static final Access TRANSFER_SRC = new Access("transfer-src", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, false);
    /** The destination of a copy, blit or fill. */
    public static final Access TRANSFER_DST = new Access("transfer-dst", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, true);
    /** The host reads after the frame: only valid as an imported resource's final access. */
    public static final Access HOST_READ = new Access("host-read", VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT,
            VK_IMAGE_LAYOUT_GENERAL, false);
    /** Presentation: only valid as a swapchain image's final access. */
    public static final Access PRESENT = new Access("present", VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
            VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, false);

    /** Memory accesses that write. */
    static final long WRITE_BITS = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT
            | VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT
            | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;

    /** {@return the bits of {@link #access()} that write memory (a barrier makes them available)} */
    public long writeAccess() {
        return access & WRITE_BITS;
    }

    /** {@return the bits of {@link #access()} that read memory (a barrier makes earlier writes visible to them)} */
    public long readAccess() {
        return access & ~WRITE_BITS;
    }

    /** {@return the name, as errors and graph dumps print it} */
    @Override
    public String toString() {
        return name;
    }
}

package dev.tally.exposure;

import dev.tally.graph.FrameGraph;
import dev.tally.exposure.Metering;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageHandle;
import dev.tally.vk.GpuImage;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Auto-exposure as passes in a frame graph, with no CPU round trip: histogram of the HDR image,
 * its total by the reduction node, normalization by that GPU-side total, then exposure adaptation
 * against last frame's exposure (a history resource). The tonemap pass reads the result directly.
 */
public interface AutoExposure extends AutoCloseable {
    /**
     * Handles this frame's passes produced, for the passes that read them after {@link #add}: the tonemap
     * pass reads {@code exposure}, the HUD's histogram reads {@code normalized} and {@code exposure}, a
     * readback ring may capture any of them.
     *
     * @param bins       the resolved histogram, {@link ExposureShaderLayout#BINS} floats (pixel weights per bin)
     * @param total      the bins' sum, one float, left on the GPU by the reduction
     * @param normalized the bins divided by the total, then a validity flag
     *                   ({@link ExposureShaderLayout#NORMALIZED_FLOATS} floats)
     * @param exposure   this frame's exposure record, {@link ExposureShaderLayout#EXPOSURE_FLOATS} floats laid out as
     *                   {@link ExposureShaderLayout} lists ({@link ExposureShaderLayout#MULTIPLIER} is what the image is scaled by)
     */
    public record Result(BufferHandle bins, BufferHandle total, BufferHandle normalized, BufferHandle exposure) {
    }
    /**
     * Hot reload: rebuilds every pipeline from the current shader sources, between frames. On a
     * compile error the previous pipelines stay and the error is thrown.
     */
    void reload();

    /**
     * Changes settings at run time, from the next {@link #add}; a new metering mode rebuilds the histogram pipeline.
     *
     * @param next the new settings
     */
    void settings(ExposureSettings next);

    /** {@return the settings the next {@link #add} uses} */
    ExposureSettings settings();

    /**
     * The metering mask (red channel = weight) used when metering is {@link Metering#MASK}; the caller owns it
     * and keeps it alive while frames that read it are in flight.
     *
     * @param image   the mask, of any extent and sampled format: each pixel reads the mask texel nearest its
     *                centre (texelFetch), or null to drop the mask
     * @param sampler the VkSampler bound with it; Vulkan needs one, its filter and addressing do not matter
     */
    void mask(GpuImage image, long sampler);

    /** A camera cut: the next frame snaps to its target instead of adapting. */
    void reset();

    /** {@return the scope this auto-exposure's pass and resource names start with} */
    String scope();

    /**
     * Adds passes histogram (its resolve fused in), reduce*, and exposure (normalization fused in), each under this
     * auto-exposure's scope, metering {@code hdr}, whose extent comes from the graph. Adaptation runs
     * against the previous frame's record, kept on the GPU, so no value crosses to the CPU.
     *
     * @param frameGraph this frame's graph
     * @param hdr        the HDR image to meter: one of the {@link ExposureShaderLayout.HdrFormat} formats,
     *                   with STORAGE or SAMPLED usage
     * @param dt         seconds since the previous frame, for the adaptation speeds and the histogram filter
     * @return the handles of the histogram, its total, the normalized histogram and the exposure record
     */
    Result add(FrameGraph frameGraph, ImageHandle hdr, float dt);

    /** Releases the pipelines and the history buffers, deferred until the GPU is done with them. */
    void close();
}

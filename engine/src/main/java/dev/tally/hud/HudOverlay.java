package dev.tally.hud;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The statistics overlay: one pass over the tonemapped image, in compute over the tiles under its
 * panels where the target is an RGBA8 storage image, else a graphics pass. Text is DejaVu Sans Mono
 * rasterized for the output's height ({@link FontAtlas}), drawn 1:1 from an atlas in a storage
 * buffer; the histogram bars, percentile markers and the exposure plot are drawn straight from the GPU
 * buffers the exposure passes wrote, so they never leave the GPU.
 * <p>
 * The overlay is the public face: {@link HudFont} keeps the font and its atlas, {@link HudUploadRing}
 * the frames' upload slots, {@link HudSceneBuilder} fills a frame's scene and text, and
 * {@link HudComputePath} or {@link HudGraphicsPath} adds the pass.
 */
public interface HudOverlay extends AutoCloseable {
    /** Where the histogram panel reads from and how bins map to EV (for the percentile markers). */
    public record HistogramView(BufferHandle normalized, BufferHandle exposure, float minEV, float maxEV, float binsPerEV) {
    }
    /** Rebuilds pipelines from the current shader sources (hot reload); on failure the old ones stay. */
    void reload();

    /**
     * Adds pass {@code hud}: {@code lines} of text top-left, the histogram bottom-left and, when
     * {@code plot} is not null, the exposure plot bottom-right, over {@code target} (its extent and
     * format as the graph knows them). A compute pass over the tiles under the panels where the target
     * is an RGBA8 storage image ({@link #usesCompute}), a graphics pass otherwise; both give the same
     * pixels. Call once the frame's command buffer is free (frames in flight paced), since the text is
     * written to the frame's host-visible slot now.
     */
    ImageHandle add(FrameGraph g, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot);

    /** As {@link #add(GraphDeclaration, ImageHandle, List, HistogramView, ExposurePlot.View)}, the pass named {@code name}. */
    ImageHandle add(FrameGraph frameGraph, String name, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot);

    void close();
}

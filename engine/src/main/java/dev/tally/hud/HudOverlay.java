package dev.tally.hud;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageHandle;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;

import java.util.List;

/**
 * The statistics overlay: one pass over the tonemapped image, in compute over the tiles under its
 * panels where the target is an RGBA8 storage image, else a graphics pass. Text is DejaVu Sans Mono
 * rasterized for the output's height ({@code hud.scale}), drawn 1:1 from an atlas in a storage
 * buffer; the histogram bars, percentile markers and the exposure plot are drawn straight from the GPU
 * buffers the exposure passes wrote, so they never leave the GPU. Made by {@link dev.tally.Tally#hud()}.
 */
public interface HudOverlay extends AutoCloseable {
    /**
     * Where the histogram panel reads from and how bins map to EV (for the percentile markers); from an
     * auto-exposure's {@link dev.tally.exposure.AutoExposure.Result} and settings.
     *
     * @param normalized the normalized histogram ({@link dev.tally.exposure.ExposureShaderLayout#NORMALIZED_FLOATS} floats)
     * @param exposure   the exposure record, for the percentile markers and the applied EV
     * @param minEV      the settings' minEV: the EV at the bottom of bin 1
     * @param maxEV      the settings' maxEV: the EV at the top of bin 255
     * @param binsPerEV  the settings' {@link dev.tally.exposure.ExposureSettings#binsPerEV()}
     */
    public record HistogramView(BufferHandle normalized, BufferHandle exposure, float minEV, float maxEV, float binsPerEV) {
    }
    /** Rebuilds pipelines from the current shader sources (hot reload); on failure the old ones stay. */
    void reload();

    /**
     * Adds pass {@code hud}: {@code lines} of text top-left, the histogram bottom-left and, when
     * {@code plot} is not null, the exposure plot bottom-right, over {@code target} (its extent and
     * format as the graph knows them). A compute pass over the tiles under the panels where the target
     * is an RGBA8 storage image on a GPU with the subgroup operations it uses, a graphics pass otherwise (also on a CPU
     * device such as lavapipe, where it is the faster), which needs the target's colour-attachment usage (refused in one
     * line without it); both give the same pixels. Call once the
     * frame's command buffer is free (frames in flight paced), since the text is written to the frame's
     * host-visible slot now. An overlay draws one HUD a frame (its upload slot is the frame's): for two
     * views, make two ({@code Tally.hud()}); a second add in the same frame is refused.
     *
     * @param g         this frame's graph
     * @param target    the tonemapped image drawn over (loaded, not cleared)
     * @param lines     the text, one entry a line; read now, not kept
     * @param histogram where the histogram panel reads from
     * @param plot      this frame's exposure plot ({@link ExposurePlot#add}), or null for none
     * @return the target's new version
     */
    ImageHandle add(FrameGraph g, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot);

    /**
     * As {@link #add(FrameGraph, ImageHandle, List, HistogramView, ExposurePlot.View)}, the histogram panel reading an
     * auto-exposure's result with its settings' EV range. The overlay keeps the views it made and makes one again only
     * when a handle or a setting changed, so a steady frame allocates nothing here (a {@link HistogramView} made by the
     * caller each frame is a new object each frame).
     *
     * @param g        this frame's graph
     * @param target   the tonemapped image drawn over (loaded, not cleared)
     * @param lines    the text, one entry a line; read now, not kept
     * @param exposure this frame's auto-exposure result: its normalized histogram and exposure record
     * @param settings that auto-exposure's settings ({@code AutoExposure.settings()}): the EV range of its bins
     * @param plot     this frame's exposure plot ({@link ExposurePlot#add}), or null for none
     * @return the target's new version
     */
    ImageHandle add(FrameGraph g, ImageHandle target, List<? extends CharSequence> lines, AutoExposure.Result exposure, ExposureSettings settings,
                    ExposurePlot.View plot);

    /**
     * As {@link #add(FrameGraph, ImageHandle, List, AutoExposure.Result, ExposureSettings, ExposurePlot.View)}, the pass
     * named {@code name}: one overlay per view, each pass with a name of its own.
     *
     * @param frameGraph this frame's graph
     * @param name       the pass's name
     * @param target     the tonemapped image drawn over
     * @param lines      the text, one entry a line
     * @param exposure   this frame's auto-exposure result
     * @param settings   that auto-exposure's settings
     * @param plot       this frame's exposure plot, or null for none
     * @return the target's new version
     */
    ImageHandle add(FrameGraph frameGraph, String name, ImageHandle target, List<? extends CharSequence> lines, AutoExposure.Result exposure,
                    ExposureSettings settings, ExposurePlot.View plot);

    /**
     * As {@link #add(FrameGraph, ImageHandle, List, HistogramView, ExposurePlot.View)}, the pass named {@code name}.
     *
     * @param frameGraph this frame's graph
     * @param name       the pass's name
     * @param target     the tonemapped image drawn over
     * @param lines      the text, one entry a line
     * @param histogram  where the histogram panel reads from
     * @param plot       this frame's exposure plot, or null for none
     * @return the target's new version
     */
    ImageHandle add(FrameGraph frameGraph, String name, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot);

    /** Releases the pipelines, the font atlas and the upload slots, deferred until the GPU is done with them. */
    void close();
}

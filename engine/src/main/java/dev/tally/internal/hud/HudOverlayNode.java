package dev.tally.internal.hud;

import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.hud.ExposurePlot;

import dev.tally.hud.HudOverlay;

import dev.tally.graph.FrameGraph;

import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;

import java.util.List;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;

/**
 * The statistics overlay: one pass over the tonemapped image, in compute over the tiles under its
 * panels where the target is an RGBA8 storage image, else a graphics pass. Text is DejaVu Sans Mono
 * rasterized for the output's height ({@link FontAtlas}), drawn 1:1 from an atlas in a storage
 * buffer; the histogram bars, percentile markers and the exposure plot are drawn straight from the GPU
 * buffers the exposure passes wrote, so they never leave the GPU.
 * <p>
 * The overlay is the public face: {@link HudFont} keeps the font and its atlas, {@link HudUploadRing}
 * the frames' upload slots, {@link HudSceneBuilder} fills a frame's scene and text, and
 * {@link HudTextSlots} which slot's glyphs a frame binds (built again when the text changes),
 * and {@link HudComputePath} or {@link HudGraphicsPath} adds the pass.
 */
public final class HudOverlayNode implements HudOverlay {

    /** Line height as a fraction of the output height when none is configured. */
    public static final double DEFAULT_TEXT_FRACTION = 0.02;

    private final VulkanContext ctx;
    private final HudUploadRing uploads;
    private final HudFont font;
    private final HudSceneBuilder sceneBuilder = new HudSceneBuilder();
    /** Views of auto-exposure results, kept from frame to frame. */
    private final HistogramViews histogramViews = new HistogramViews();
    private final HudTextSlots textSlots;
    private final HudComputePath computePath;
    private final HudGraphicsPath graphicsPath;
    /** The frame whose HUD this overlay last added, and that pass's name (for the refusal of a second one). */
    private long addedFrame = -1;
    private String addedName;

    /** @param textFraction line height as a fraction of the output height (0.02: 2 %) */
    public HudOverlayNode(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, double textFraction) {
        this(ctx, compiler, cache, textFraction, false);
    }

    /**
     * @param textFraction line height as a fraction of the output height (0.02: 2 %)
     * @param computeOnCpu true: a CPU device takes the compute path where it can (tests comparing both paths);
     *                     false: it draws with the graphics path, which it runs far faster
     */
    public HudOverlayNode(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, double textFraction, boolean computeOnCpu) {
        if (!(textFraction > 0 && textFraction <= 0.25)) {
            throw new IllegalArgumentException("HUD text size must be in (0, 0.25] of the output height, got " + textFraction);
        }
        this.ctx = ctx;
        this.uploads = new HudUploadRing(ctx);
        this.textSlots = new HudTextSlots(uploads.slots(), ctx.options().framesInFlight());
        this.font = new HudFont(ctx, textFraction);
        this.computePath = new HudComputePath(ctx, compiler, cache, computeOnCpu);
        this.graphicsPath = new HudGraphicsPath(ctx, compiler, cache);
    }

    /** Rebuilds pipelines from the current shader sources (hot reload); on failure the old ones stay. */
    public void reload() {
        ComputeKernel fresh = computePath.newKernel();   // throws before anything is replaced
        graphicsPath.reload();
        computePath.replaceKernel(fresh);
    }

    /** The font baked for an output {@code outputHeight} pixels tall (baked again when the height changes). */
    public FontAtlas font(int outputHeight) {
        return font.font(outputHeight);
    }

    /**
     * True when the compute path writes {@code target}: RGBA8 UNORM, STORAGE usage, storage support and
     * the subgroup operations hud.comp uses (ballot, shuffle, arithmetic, in compute) on this device.
     */
    public boolean usesCompute(ImageDesc target) {
        return computePath.writes(target);
    }

    /**
     * Adds pass {@code hud}: {@code lines} of text top-left, the histogram bottom-left and, when
     * {@code plot} is not null, the exposure plot bottom-right, over {@code target} (its extent and
     * format as the graph knows them). A compute pass over the tiles under the panels where the target
     * is an RGBA8 storage image ({@link #usesCompute}), a graphics pass otherwise; both give the same
     * pixels. Call once the frame's command buffer is free (frames in flight paced), since the text is
     * written to the frame's host-visible slot now.
     */
    public ImageHandle add(FrameGraph g, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot) {
        return add(g, "hud", target, lines, histogram, plot);
    }

    /** As {@link #add(FrameGraph, ImageHandle, List, HistogramView, ExposurePlot.View)}, from an auto-exposure's result: no view made per frame. */
    public ImageHandle add(FrameGraph g, ImageHandle target, List<? extends CharSequence> lines, AutoExposure.Result exposure, ExposureSettings settings,
                           ExposurePlot.View plot) {
        return add(g, "hud", target, lines, exposure, settings, plot);
    }

    /** As {@link #add(FrameGraph, ImageHandle, List, AutoExposure.Result, ExposureSettings, ExposurePlot.View)}, the pass named {@code name}. */
    public ImageHandle add(FrameGraph g, String name, ImageHandle target, List<? extends CharSequence> lines, AutoExposure.Result exposure,
                           ExposureSettings settings, ExposurePlot.View plot) {
        if (exposure == null || settings == null) {
            throw new IllegalArgumentException("HUD overlay: pass '" + name + "': " + (exposure == null ? "the auto-exposure result is null" : "the exposure settings are null"));
        }
        return add(g, name, target, lines, histogramViews.of(exposure, settings), plot);
    }

    /** As {@link #add(GraphDeclaration, ImageHandle, List, HistogramView, ExposurePlot.View)}, the pass named {@code name}. */
    public ImageHandle add(FrameGraph frameGraph, String name, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot) {
        GraphDeclaration g = GraphDeclaration.of(frameGraph);
        if (histogram == null) {
            throw new IllegalArgumentException("HUD overlay: pass '" + name + "': the histogram view is null");
        }
        if (g.frame() == addedFrame) {
            // The frame's upload slot holds one HUD: a second would overwrite the first's text and scene before the GPU reads them.
            throw new IllegalStateException("HUD overlay: pass '" + name + "' added in frame " + g.frame() + " after pass '" + addedName
                    + "'; an overlay draws one HUD a frame: make one per view (Tally.hud())");
        }
        ImageDesc desc = g.desc(target);
        boolean compute = usesCompute(desc);
        if (!compute && (desc.usage() & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) == 0) {
            throw new IllegalArgumentException("HUD overlay: pass '" + name + "' draws over image '" + g.name(target) + "' with a graphics pass here,"
                    + " which needs VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT; add it to the image's usage (the compute pass, taken only on a GPU,"
                    + " needs an R8G8B8A8_UNORM image with storage usage)");
        }
        int width = desc.width();
        int height = desc.height();
        FontAtlas f = font(height);
        TrackedBuffer atlasBuffer = font.atlas();
        int frameSlot = uploads.slotFor(g);
        float lineWidth = Math.max(2f, f.pixelHeight() / 8f);
        // The glyphs and scene are built when the text or the shape changed, into a slot no frame in flight reads; each
        // frame writes only its own header (the plot's clock) into its own slot.
        int textSlot = textSlots.select(g.frame(), f, width, height, lines, plot != null, histogram.minEV(), histogram.maxEV());
        HudScene scene = uploads.scene(textSlot);
        TrackedBuffer glyphSlot = uploads.buffer(textSlot);
        if (textSlots.mustBuild()) {
            TextLayout glyphs = uploads.layout(textSlot, f);
            HudLayout built = sceneBuilder.build(scene, glyphs, f, width, height, lines, histogram, plot, lineWidth);
            int count = uploads.writeGlyphs(textSlot, glyphs);
            glyphSlot.flush(HudScene.GLYPH_OFFSET, Math.max(4L, (long) count * TextLayout.GLYPH_BYTES));
            textSlots.built(textSlot, f, width, height, lines, plot != null, histogram.minEV(), histogram.maxEV(), built, count);
        }
        HudLayout layout = textSlots.layout();
        int count = textSlots.glyphs();
        ImageHandle drawn = compute
                ? computePath.add(g, name, target, scene, layout, uploads.mapped(frameSlot), uploads.buffer(frameSlot), glyphSlot, atlasBuffer, f,
                        histogram, plot, lineWidth)
                : graphicsPath.add(g, name, target, desc.format(), width, height, scene, layout, glyphSlot, count, atlasBuffer, f, histogram, plot,
                        lineWidth);
        addedFrame = g.frame();   // once the pass is in: an add that failed may be made again
        addedName = name;
        return drawn;
    }

    @Override
    public void close() {
        ctx.requireOpen("HudOverlay");
        graphicsPath.close();
        computePath.close();
        uploads.close();
        font.close();
    }
}

package dev.tally.hud;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.Bindings;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.GraphicsPipeline;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.PipelinesByFormat;
import dev.tally.shader.ShaderLibrary;
import dev.tally.vk.internal.ConstructionGuard;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.*;

/**
 * The statistics overlay: one pass over the tonemapped image, in compute over the tiles under its
 * panels where the target is an RGBA8 storage image, else a graphics pass. Text is DejaVu Sans Mono
 * rasterized for the output's height ({@link FontAtlas}), drawn 1:1 from an atlas in a storage
 * buffer; the histogram bars, percentile markers and the exposure plot are drawn straight from the GPU
 * buffers the exposure passes wrote, so they never leave the GPU.
 */
public final class HudOverlay implements AutoCloseable {
    /** Where the histogram panel reads from and how bins map to EV (for the percentile markers). */
    public record HistogramView(BufferHandle normalized, BufferHandle exposure, float minEV, float maxEV, float binsPerEV) {
    }

    /** Line height as a fraction of the output height when none is configured. */
    public static final double DEFAULT_TEXT_FRACTION = 0.02;
    private static final int MAX_GLYPHS = 8192;
    private static final int PUSH_BYTES = 64;
    private static final int MODE_TEXT = 0, MODE_HISTOGRAM = 1, MODE_RECT = 2, MODE_PLOT = 3;
    private static final int PANEL = 0x8c000000, GRID = 0x40ffffff;
    static final int TITLE = 0xffffe080, WHITE = 0xffffffff, APPLIED = 0xff40ccff, TARGET = 0xe6ffcc59;

    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final double textFraction;
    private final GpuBuffer[] text;
    private final PipelinesByFormat pipelines = new PipelinesByFormat(this::build);
    /** Tiles of the compute path's dispatch per row (groups beyond fill further rows). */
    private static final int MAX_GROUPS_X = 4096;
    private static final int TEXT_BOX = 0, HISTOGRAM_BOX = 1, PLOT_BOX = 2;
    private final HudScene[] scenes;
    private final TextLayout[] layouts;
    private FontAtlas font;
    private GpuBuffer atlas;
    private ComputeKernel compute;
    private Boolean computeSupported;
    private final int[] glyphBounds = new int[4];
    /** The last frame's layout: the next frame of the same shape reuses it. */
    private HudLayout lastLayout;
    /** Scratch for the scene's areas (copied into the slot by HudScene.write). */
    private final float[] histogramAreaScratch = new float[4], plotAreaScratch = new float[4];
    /** Each text slot's mapped memory as a buffer, made once per slot. */
    private final ByteBuffer[] mappedSlots;


    /** @param textFraction line height as a fraction of the output height (0.02: 2 %) */
    public HudOverlay(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, double textFraction) {
        if (!(textFraction > 0 && textFraction <= 0.25)) {
            throw new IllegalArgumentException("HUD text size must be in (0, 0.25] of the output height, got " + textFraction);
        }
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.textFraction = textFraction;
        try (ConstructionGuard guard = new ConstructionGuard()) {
            text = new GpuBuffer[ctx.options().framesInFlight() + 1];
            scenes = new HudScene[text.length];
            layouts = new TextLayout[text.length];
            mappedSlots = new ByteBuffer[text.length];
            for (int i = 0; i < text.length; i++) {
                scenes[i] = new HudScene();
                text[i] = guard.add(new GpuBuffer(ctx, "hud.text" + i, HudScene.GLYPH_OFFSET + (long) MAX_GLYPHS * TextLayout.GLYPH_BYTES,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD));
            }
            guard.done();
        }
    }

    private GraphicsPipeline build(int format) {
        return new GraphicsPipeline(ctx, compiler, cache, "hud.vert", "hud.frag", ExposurePlot.recordDefines(), format, true,
                List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER,
                        BindingType.STORAGE_BUFFER), PUSH_BYTES);
    }

    /** Rebuilds pipelines from the current shader sources (hot reload); on failure the old ones stay. */
    public void reload() {
        ComputeKernel fresh = new ComputeKernel(ctx, compiler, cache, "hud.comp", ExposurePlot.recordDefines(), null,
                List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER,
                        BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_IMAGE), 0);   // throws before anything is replaced
        pipelines.reload();
        if (compute != null) {
            compute.close();   // destruction deferred past frames in flight
        }
        compute = fresh;
    }

    /** The font baked for an output {@code outputHeight} pixels tall (baked again when the height changes). */
    public FontAtlas font(int outputHeight) {
        int px = FontAtlas.pixelHeightFor(outputHeight, textFraction);
        if (font == null || font.pixelHeight() != px) {
            FontAtlas next = FontAtlas.bake(px);
            GpuBuffer buffer = new GpuBuffer(ctx, "hud.atlas", (long) next.width() * next.height(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    MemoryKind.UPLOAD);
            MemoryUtil.memByteBuffer(buffer.mappedAddress(), (int) buffer.size()).put(0, next.coverage());
            buffer.flush(0, buffer.size());
            if (atlas != null) {
                atlas.close();   // destruction waits for the frames still reading it
            }
            atlas = buffer;
            font = next;
        }
        return font;
    }

    /**
     * True when the compute path writes {@code target}: RGBA8 UNORM, STORAGE usage, storage support and
     * the subgroup operations hud.comp uses (ballot, shuffle, arithmetic, in compute) on this device.
     */
    public boolean usesCompute(ImageDesc target) {
        if (target.format() != VK_FORMAT_R8G8B8A8_UNORM || (target.usage() & VK_IMAGE_USAGE_STORAGE_BIT) == 0) {
            return false;
        }
        if (computeSupported == null) {
            int ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT
                    | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
            computeSupported = ctx.optimalTilingSupports(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
                    && ctx.info().subgroupComputeSupports(ops);
        }
        return computeSupported;
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

    /** As {@link #add(FrameGraph, ImageHandle, List, HistogramView, ExposurePlot.View)}, the pass named {@code name}. */
    public ImageHandle add(FrameGraph g, String name, ImageHandle target, List<? extends CharSequence> lines, HistogramView histogram, ExposurePlot.View plot) {
        ImageDesc desc = g.desc(target);
        int width = desc.width();
        int height = desc.height();
        FontAtlas f = font(height);
        GpuBuffer atlasBuffer = atlas;
        int slotIndex = g.ticket().slotIn(text.length);   // the frame's own slot: one ring deeper than the frames in flight
        GpuBuffer slot = text[slotIndex];
        HudScene scene = scenes[slotIndex];
        TextLayout glyphs = layouts[slotIndex];
        if (glyphs == null || glyphs.font() != f) {
            glyphs = layouts[slotIndex] = new TextLayout(f);
        }
        HudLayout layout = lastLayout = HudLayout.of(lastLayout, f, width, height, lines, plot != null);
        float lineWidth = Math.max(2f, f.pixelHeight() / 8f);
        scene.reset(width, height);
        glyphs.clear();
        Rect t = layout.textPanel();
        scene.rect(TEXT_BOX, t.x0(), t.y0(), t.x1(), t.y1(), PANEL);
        Rect hr = layout.histogram();
        scene.rect(HISTOGRAM_BOX, hr.x0(), hr.y0(), hr.x1(), hr.y1(), PANEL);
        Rect ha = layout.histogramArea();
        // Bars and markers stay within the area but for the markers' rounding: two pixels of margin.
        scene.range(HISTOGRAM_BOX, HudScene.KIND_HISTOGRAM, 0, 258, ha.x0() - 2, ha.y0(), ha.x1() + 2, ha.y1());
        Rect pr = layout.plot();
        Rect area = layout.plotArea();
        if (plot != null) {
            scene.rect(PLOT_BOX, pr.x0(), pr.y0(), pr.x1(), pr.y1(), PANEL);
            float step = layout.gridStep(histogram.minEV(), histogram.maxEV());
            for (float ev = layout.firstGridEV(histogram.minEV(), step); ev <= histogram.maxEV(); ev += step) {
                int y = Math.round(layout.evToY(ev, histogram.minEV(), histogram.maxEV()) - 0.5f);
                scene.rect(PLOT_BOX, area.x0(), y, area.x1(), y + 1, GRID);
            }
            // Segment points lie inside the area (times in the window, EV clamped); caps reach half a line width out.
            int m = (int) Math.ceil(lineWidth / 2) + 2;
            scene.range(PLOT_BOX, HudScene.KIND_PLOT, 0, 2 * (ExposurePlot.CAPACITY - 1), area.x0() - m, area.y0() - m, area.x1() + m, area.y1() + m);
        }
        // One range per line: a compute tile meets one or two lines and culls the others by their bounds at once.
        // Past the range budget (the panels, histogram, plot and labels take 8) the last lines share one range.
        int separate = Math.min(lines.size(), HudScene.MAX_RANGES - 9);
        int from = 0;
        for (int l = 0; l < lines.size(); l++) {
            boolean own = l < separate;
            if (own || l == separate) {
                from = glyphs.count();
                glyphs.mark();
            }
            glyphs.add(lines.get(l), layout.textX(), layout.baseline(l), l == 0 ? TITLE : WHITE);
            if (own || l == lines.size() - 1) {
                glyphRange(scene, glyphs, TEXT_BOX, from);
            }
        }
        int mark = glyphs.count();
        glyphs.mark();
        glyphs.add("histogram", hr.x0() + f.advance() / 2, hr.y0() + f.ascent(), WHITE);
        glyphRange(scene, glyphs, HISTOGRAM_BOX, mark);
        if (plot != null) {
            mark = glyphs.count();
            glyphs.mark();
            glyphs.add("applied EV", pr.x0() + f.advance() / 2, pr.y0() + f.ascent(), APPLIED);
            glyphs.add("target EV", pr.x0() + f.advance() * 12, pr.y0() + f.ascent(), TARGET);
            float step = layout.gridStep(histogram.minEV(), histogram.maxEV());
            for (float ev = layout.firstGridEV(histogram.minEV(), step); ev <= histogram.maxEV(); ev += step) {
                String label = evLabel(ev);
                glyphs.add(label, (int) (area.x0() - f.advance() * (label.length() + 0.5f)),
                        (int) (layout.evToY(ev, histogram.minEV(), histogram.maxEV()) + f.ascent() / 2f), WHITE);
            }
            glyphs.add(SPAN_LABEL, pr.x1() - f.textWidth(SPAN_LABEL) - f.advance() / 2, pr.y0() + f.ascent(), WHITE);
            glyphRange(scene, glyphs, PLOT_BOX, mark);
        }
        ByteBuffer mapped = mappedSlots[slotIndex];
        if (mapped == null) {
            mapped = mappedSlots[slotIndex] = MemoryUtil.memByteBuffer(slot.mappedAddress(), (int) slot.size()).order(ByteOrder.LITTLE_ENDIAN);
        }
        int count = glyphs.write(mapped, HudScene.GLYPH_OFFSET, MAX_GLYPHS);
        if (usesCompute(desc)) {
            int groups = scene.planTiles();
            int groupsX = Math.max(1, Math.min(groups, MAX_GROUPS_X)), groupsY = (groups + groupsX - 1) / groupsX;
            float[] haf = histogramAreaScratch, af = plotAreaScratch;
            haf[0] = ha.x(); haf[1] = ha.y(); haf[2] = ha.w(); haf[3] = ha.h();
            af[0] = area.x(); af[1] = area.y(); af[2] = area.w(); af[3] = area.h();
            scene.write(mapped, groupsX, groupsY, haf, histogram.minEV(), histogram.binsPerEV(),
                    f.width(), af, plot == null ? 0 : plot.now(), ExposurePlot.SPAN_SECONDS,
                    histogram.minEV(), histogram.maxEV(), lineWidth);
            slot.flush(0, HudScene.GLYPH_OFFSET + Math.max(4L, (long) count * TextLayout.GLYPH_BYTES));
            return addCompute(g, name, target, histogram, plot, slot, atlasBuffer, groupsX, groupsY);
        }
        slot.flush(HudScene.GLYPH_OFFSET, Math.max(4L, (long) count * TextLayout.GLYPH_BYTES));
        GraphicsPipeline pipeline = pipelines.get(desc.format());
        Push push = new Push(width, height, f.width(), histogram, plot, lineWidth);
        record Io(ImageHandle target, BufferHandle normalized, BufferHandle exposure, BufferHandle plot) {
        }
        Io io = g.addPass(name, PassKind.GRAPHICS, b -> new Io(b.colorAttachment(target, null),
                b.read(histogram.normalized(), Access.GRAPHICS_READ), b.read(histogram.exposure(), Access.GRAPHICS_READ),
                plot == null ? null : b.read(plot.ring(), Access.GRAPHICS_READ)), (h, c) -> {
            List<DescriptorSets.Binding> bindings = bindings(c, atlasBuffer, slot, h.normalized(), h.exposure(), h.plot());
            try (MemoryStack stack = MemoryStack.stackPush()) {
                for (int r = 0; r < scene.ranges(); r++) {
                    int n = Math.min(scene.count(r), scene.kind(r) == HudScene.KIND_GLYPHS ? count - scene.first(r) : Integer.MAX_VALUE);
                    switch (scene.kind(r)) {
                        case HudScene.KIND_RECTS -> {
                            for (int i = scene.first(r); i < scene.first(r) + n; i++) {
                                pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_RECT, scene.rect(i, 0), scene.rect(i, 1),
                                        scene.rect(i, 2) - scene.rect(i, 0), scene.rect(i, 3) - scene.rect(i, 1), scene.rectRgba(i)), c.width(), c.height(), 6);
                            }
                        }
                        case HudScene.KIND_HISTOGRAM -> pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_HISTOGRAM, ha.x(), ha.y(), ha.w(), ha.h(), 0),
                                c.width(), c.height(), 6 * n);
                        case HudScene.KIND_PLOT -> pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_PLOT, area.x(), area.y(), area.w(), area.h(), 0),
                                c.width(), c.height(), 6 * n);
                        default -> {
                            if (n > 0) {
                                pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_TEXT, 0, 0, 0, 0, scene.first(r)), c.width(), c.height(), 6 * n);
                            }
                        }
                    }
                }
            }
        });
        return io.target();
    }

    private static final String SPAN_LABEL = "last " + (int) ExposurePlot.SPAN_SECONDS + " s";
    private static final String[] EV_LABELS = new String[201];

    /** "+10", "-5", "+0": grid labels, formatted once per value. */
    private static String evLabel(float ev) {
        int v = Math.round(ev);
        if (v < -100 || v > 100 || v != ev) {
            return String.format(Locale.ROOT, "%+.0f", ev);
        }
        String s = EV_LABELS[v + 100];
        return s != null ? s : (EV_LABELS[v + 100] = String.format(Locale.ROOT, "%+.0f", ev));
    }

    private void glyphRange(HudScene scene, TextLayout glyphs, int box, int from) {
        int[] b = glyphBounds;
        glyphs.markedBounds(b);
        scene.range(box, HudScene.KIND_GLYPHS, from, glyphs.count() - from, b[0], b[1], b[2], b[3]);
    }

    private static List<DescriptorSets.Binding> bindings(dev.tally.graph.PassContext c, GpuBuffer atlasBuffer, GpuBuffer slot,
                                                         BufferHandle normalized, BufferHandle exposureHandle, BufferHandle plotHandle) {
        GpuBuffer exposure = c.buffer(exposureHandle);
        GpuBuffer ring = plotHandle == null ? exposure : c.buffer(plotHandle);
        return List.of(DescriptorSets.Range.of(atlasBuffer, 0, atlasBuffer.size()),
                DescriptorSets.Range.of(slot, HudScene.GLYPH_OFFSET, slot.size() - HudScene.GLYPH_OFFSET),
                DescriptorSets.Range.of(c.buffer(normalized), 0, 256 * 4),
                DescriptorSets.Range.of(exposure, 0, exposure.size()), DescriptorSets.Range.of(ring, 0, ring.size()));
    }

    /** The compute pass's handles and what its recording needs. */
    private record ComputeIo(ImageHandle target, BufferHandle normalized, BufferHandle exposure, BufferHandle plot, GpuBuffer slot,
                             GpuBuffer atlas, int groupsX, int groupsY) {
    }

    // The compute pass being declared, read by computeSetup while addPass runs: no lambda captures per frame.
    private ImageHandle computeTarget;
    private HistogramView computeHistogram;
    private ExposurePlot.View computePlot;
    private GpuBuffer computeSlot, computeAtlas;
    private int computeGroupsX, computeGroupsY;
    private final Bindings computeBindings = new Bindings(7);

    private final java.util.function.Function<dev.tally.graph.PassBuilder, ComputeIo> computeSetup = b -> new ComputeIo(
            b.write(computeTarget, Access.COMPUTE_READ_WRITE), b.read(computeHistogram.normalized(), Access.COMPUTE_READ),
            b.read(computeHistogram.exposure(), Access.COMPUTE_READ), computePlot == null ? null : b.read(computePlot.ring(), Access.COMPUTE_READ),
            computeSlot, computeAtlas, computeGroupsX, computeGroupsY);

    private final java.util.function.BiConsumer<ComputeIo, dev.tally.graph.PassContext> computeRecord = (h, c) -> {
        GpuBuffer exposure = c.buffer(h.exposure());
        GpuBuffer ring = h.plot() == null ? exposure : c.buffer(h.plot());
        compute().dispatch(c.cmd(), computeBindings.clear()
                .buffer(h.atlas(), 0, h.atlas().size())
                .buffer(h.slot(), HudScene.GLYPH_OFFSET, h.slot().size() - HudScene.GLYPH_OFFSET)
                .buffer(c.buffer(h.normalized()), 0, 256 * 4)
                .buffer(exposure, 0, exposure.size())
                .buffer(ring, 0, ring.size())
                .buffer(h.slot(), 0, HudScene.HEADER_BYTES)
                .storageImage(c.image(h.target())), 0L, 0, h.groupsX(), h.groupsY());
    };

    private ImageHandle addCompute(FrameGraph g, String name, ImageHandle target, HistogramView histogram, ExposurePlot.View plot, GpuBuffer slot,
                                   GpuBuffer atlasBuffer, int groupsX, int groupsY) {
        compute();
        computeTarget = target;
        computeHistogram = histogram;
        computePlot = plot;
        computeSlot = slot;
        computeAtlas = atlasBuffer;
        computeGroupsX = groupsX;
        computeGroupsY = groupsY;
        ImageHandle out = g.addPass(name, PassKind.COMPUTE, computeSetup, computeRecord).target();
        computeTarget = null;   // declared: the pass's data carries what recording needs
        computeHistogram = null;
        computePlot = null;
        computeSlot = computeAtlas = null;
        return out;
    }

    private ComputeKernel compute() {
        if (compute == null) {
            compute = new ComputeKernel(ctx, compiler, cache, "hud.comp", ExposurePlot.recordDefines(), null,
                    List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER,
                            BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_IMAGE), 0);
        }
        return compute;
    }

    /** A rectangle in output pixels, y down; the layout's rectangles have whole-pixel edges. */
    record Rect(float x, float y, float w, float h) {
        /** The rectangle with each edge rounded to the nearest pixel boundary. */
        static Rect edges(float x0, float y0, float x1, float y1) {
            int l = Math.round(x0), t = Math.round(y0);
            return new Rect(l, t, Math.round(x1) - l, Math.round(y1) - t);
        }

        int x0() {
            return (int) x;
        }

        int y0() {
            return (int) y;
        }

        int x1() {
            return (int) (x + w);
        }

        int y1() {
            return (int) (y + h);
        }
    }

    /** Push constants shared by every draw of one frame; see shaders/hud_push.glsl. */
    private record Push(int width, int height, int atlasWidth, HistogramView hv, ExposurePlot.View plot, float lineWidth) {
        ByteBuffer write(MemoryStack stack, int mode, float x, float y, float w, float h, int rgbaOrFirst) {
            ByteBuffer b = stack.malloc(PUSH_BYTES).order(ByteOrder.nativeOrder());
            b.putFloat(0, x).putFloat(4, y).putFloat(8, w).putFloat(12, h).putFloat(16, width).putFloat(20, height)
                    .putInt(24, mode).putInt(28, atlasWidth).putFloat(32, hv.minEV()).putFloat(36, hv.binsPerEV())
                    .putFloat(40, plot == null ? 0 : plot.now()).putFloat(44, ExposurePlot.SPAN_SECONDS)
                    .putFloat(48, hv.minEV()).putFloat(52, hv.maxEV()).putFloat(56, lineWidth).putInt(60, rgbaOrFirst);
            return b;
        }
    }

    /**
     * Where everything goes for one output size; every size follows the font's line height. Its rectangles
     * are worked out once: a frame of the same size and text shape reuses the layout (see {@link #same}).
     */
    static final class HudLayout {
        private final FontAtlas font;
        private final int width, height, lines, longest;
        private final boolean withPlot;
        private final Rect textPanel, histogram, histogramArea, plot, plotArea;

        private HudLayout(FontAtlas font, int width, int height, int lines, int longest, boolean withPlot) {
            this.font = font;
            this.width = width;
            this.height = height;
            this.lines = lines;
            this.longest = longest;
            this.withPlot = withPlot;
            this.textPanel = new Rect(pad(), pad(), Math.min(width - pad(), 2 * pad() + longest * font.advance()),
                    2 * pad() + lines * font.lineHeight());
            this.histogram = Rect.edges(pad(), height - pad() - graphH(), pad() + graphW(), height - pad());
            float top = font.lineHeight() + pad();
            Rect r = histogram;
            this.histogramArea = Rect.edges(r.x() + pad(), r.y() + top, r.x() + r.w() - pad(), r.y() + top + Math.max(1, r.h() - top - pad()));
            this.plot = Rect.edges(width - pad() - graphW(), height - pad() - graphH(), width - pad(), height - pad());
            // The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis.
            r = plot;
            float left = font.advance() * 4.5f;
            float bottom = font.lineHeight() / 2f + pad();
            this.plotArea = Rect.edges(r.x() + left, r.y() + top, r.x() + left + Math.max(1, r.w() - left - pad()),
                    r.y() + top + Math.max(1, r.h() - top - bottom));
        }

        static HudLayout of(FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
            return new HudLayout(font, width, height, lines.size(), longest(lines), withPlot);
        }

        /** {@code previous} when it lays out the same (font, size, line count and longest line), else a new layout. */
        static HudLayout of(HudLayout previous, FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
            int longest = longest(lines);
            return previous != null && previous.same(font, width, height, lines.size(), longest, withPlot) ? previous
                    : new HudLayout(font, width, height, lines.size(), longest, withPlot);
        }

        private static int longest(List<? extends CharSequence> lines) {
            int longest = 0;
            for (int i = 0; i < lines.size(); i++) {
                longest = Math.max(longest, lines.get(i).length());
            }
            return longest;
        }

        private boolean same(FontAtlas f, int w, int h, int n, int l, boolean p) {
            return font == f && width == w && height == h && lines == n && longest == l && withPlot == p;
        }

        int pad() {
            return Math.max(2, font.lineHeight() / 3);
        }

        int textX() {
            return 2 * pad();
        }

        /** Baseline of text line {@code l}. */
        int baseline(int l) {
            return 2 * pad() + font.ascent() + l * font.lineHeight();
        }

        Rect textPanel() {
            return textPanel;
        }

        private float graphW() {
            return Math.max(1, Math.min((width - 3f * pad()) / 2, 36f * font.advance()));
        }

        private float graphH() {
            return Math.max(1, Math.min(height / 3f, 10f * font.lineHeight()));
        }

        Rect histogram() {
            return histogram;
        }

        Rect histogramArea() {
            return histogramArea;
        }

        Rect plot() {
            return plot;
        }

        /** The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis. */
        Rect plotArea() {
            return plotArea;
        }

        float evToY(float ev, float low, float high) {
            Rect a = plotArea();
            return a.y() + a.h() * (1 - (ev - low) / (high - low));
        }

        /** EV between grid lines: every 10 EV (every 5 when the range is narrow). */
        float gridStep(float low, float high) {
            return high - low > 20 ? 10 : 5;
        }

        /** The lowest EV with a grid line; lines follow every {@code step} up to the range's top. */
        float firstGridEV(float low, float step) {
            return (float) Math.ceil(low / step) * step;
        }
    }

    @Override
    public void close() {
        ctx.requireOpen("HudOverlay");
        pipelines.close();
        if (compute != null) {
            compute.close();
        }
        for (GpuBuffer b : text) {
            b.close();
        }
        if (atlas != null) {
            atlas.close();
        }
    }
}

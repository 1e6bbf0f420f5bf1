package dev.tally.hud;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.GraphicsPipeline;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.PipelinesByFormat;
import dev.tally.shader.ShaderCompiler;
import dev.tally.vk.internal.ConstructionGuard;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The statistics overlay: one graphics pass drawn over the tonemapped image. Text is DejaVu Sans Mono
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
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private final double textFraction;
    private final GpuBuffer[] text;
    private final PipelinesByFormat pipelines = new PipelinesByFormat(this::build);
    private FontAtlas font;
    private GpuBuffer atlas;


    /** @param textFraction line height as a fraction of the output height (0.02: 2 %) */
    public HudOverlay(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache, double textFraction) {
        if (!(textFraction > 0 && textFraction <= 0.25)) {
            throw new IllegalArgumentException("HUD text size must be in (0, 0.25] of the output height, got " + textFraction);
        }
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.textFraction = textFraction;
        try (ConstructionGuard guard = new ConstructionGuard()) {
            text = new GpuBuffer[ctx.options().framesInFlight() + 1];
            for (int i = 0; i < text.length; i++) {
                text[i] = guard.add(new GpuBuffer(ctx, "hud.text" + i, (long) MAX_GLYPHS * TextLayout.GLYPH_BYTES,
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
        pipelines.reload();
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
     * Adds pass {@code hud}: {@code lines} of text top-left, the histogram bottom-left and, when
     * {@code plot} is not null, the exposure plot bottom-right, over {@code target} (its extent and
     * format as the graph knows them). Call once the frame's command buffer is free (frames in flight
     * paced), since the text is written to the frame's host-visible slot now.
     */
    public ImageHandle add(FrameGraph g, ImageHandle target, List<String> lines, HistogramView histogram, ExposurePlot.View plot) {
        int width = g.desc(target).width();
        int height = g.desc(target).height();
        int targetFormat = g.desc(target).format();
        FontAtlas f = font(height);
        GpuBuffer atlasBuffer = atlas;
        GpuBuffer slot = text[(int) (g.frame() % text.length)];
        HudLayout layout = HudLayout.of(f, width, height, lines, plot != null);
        TextLayout glyphs = new TextLayout(f);
        for (int l = 0; l < lines.size(); l++) {
            glyphs.add(lines.get(l), layout.textX(), layout.baseline(l), l == 0 ? TITLE : WHITE);
        }
        Rect hr = layout.histogram();
        glyphs.add("histogram", (int) hr.x() + f.advance() / 2, (int) hr.y() + f.ascent(), WHITE);
        Rect pr = layout.plot();
        if (plot != null) {
            glyphs.add("applied EV", (int) pr.x() + f.advance() / 2, (int) pr.y() + f.ascent(), APPLIED);
            glyphs.add("target EV", (int) pr.x() + f.advance() * 12, (int) pr.y() + f.ascent(), TARGET);
            Rect area = layout.plotArea();
            for (float ev : layout.gridEVs(histogram.minEV(), histogram.maxEV())) {
                String label = String.format(Locale.ROOT, "%+.0f", ev);
                glyphs.add(label, (int) (area.x() - f.advance() * (label.length() + 0.5f)),
                        (int) (layout.evToY(ev, histogram.minEV(), histogram.maxEV()) + f.ascent() / 2f), WHITE);
            }
            String span = "last " + (int) ExposurePlot.SPAN_SECONDS + " s";
            glyphs.add(span, (int) (pr.x() + pr.w()) - f.textWidth(span) - f.advance() / 2, (int) pr.y() + f.ascent(), WHITE);
        }
        int count = glyphs.write(slot, MAX_GLYPHS);
        GraphicsPipeline pipeline = pipelines.get(targetFormat);
        record Io(ImageHandle target, BufferHandle normalized, BufferHandle exposure, BufferHandle plot) {
        }
        Io io = g.addPass("hud", PassKind.GRAPHICS, b -> new Io(b.colorAttachment(target, null),
                b.read(histogram.normalized(), Access.GRAPHICS_READ), b.read(histogram.exposure(), Access.GRAPHICS_READ),
                plot == null ? null : b.read(plot.ring(), Access.GRAPHICS_READ)), (h, c) -> {
            GpuBuffer exposure = c.buffer(h.exposure());
            GpuBuffer ring = h.plot() == null ? exposure : c.buffer(h.plot());
            List<DescriptorSets.Binding> bindings = List.of(DescriptorSets.Range.of(atlasBuffer, 0, atlasBuffer.size()),
                    DescriptorSets.Range.of(slot, 0, slot.size()), DescriptorSets.Range.of(c.buffer(h.normalized()), 0, 256 * 4),
                    DescriptorSets.Range.of(exposure, 0, exposure.size()), DescriptorSets.Range.of(ring, 0, ring.size()));
            Push push = new Push(c.width(), c.height(), f.width(), histogram, plot, Math.max(2f, f.pixelHeight() / 8f));
            try (MemoryStack stack = MemoryStack.stackPush()) {
                Rect t = layout.textPanel();
                pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_RECT, t, PANEL), c.width(), c.height(), 6);
                pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_RECT, hr, PANEL), c.width(), c.height(), 6);
                pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_HISTOGRAM, layout.histogramArea(), 0), c.width(), c.height(), 6 * 258);
                if (h.plot() != null) {
                    pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_RECT, pr, PANEL), c.width(), c.height(), 6);
                    Rect area = layout.plotArea();
                    for (float ev : layout.gridEVs(histogram.minEV(), histogram.maxEV())) {
                        Rect line = new Rect(area.x(), layout.evToY(ev, histogram.minEV(), histogram.maxEV()) - 0.5f, area.w(), 1);
                        pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_RECT, line, GRID), c.width(), c.height(), 6);
                    }
                    pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_PLOT, area, 0), c.width(), c.height(),
                            6 * 2 * (ExposurePlot.CAPACITY - 1));
                }
                if (count > 0) {
                    pipeline.draw(c.cmd(), bindings, push.rect(stack, MODE_TEXT, t, 0), c.width(), c.height(), 6 * count);
                }
            }
        });
        return io.target();
    }

    /** A rectangle in output pixels, y down. */
    record Rect(float x, float y, float w, float h) {
    }

    /** Push constants shared by every draw of one frame; see shaders/hud_common.glsl. */
    private record Push(int width, int height, int atlasWidth, HistogramView hv, ExposurePlot.View plot, float lineWidth) {
        ByteBuffer rect(MemoryStack stack, int mode, Rect r, int rgba) {
            ByteBuffer b = stack.malloc(PUSH_BYTES).order(ByteOrder.nativeOrder());
            b.putFloat(0, r.x()).putFloat(4, r.y()).putFloat(8, r.w()).putFloat(12, r.h()).putFloat(16, width).putFloat(20, height)
                    .putInt(24, mode).putInt(28, atlasWidth).putFloat(32, hv.minEV()).putFloat(36, hv.binsPerEV())
                    .putFloat(40, plot == null ? 0 : plot.now()).putFloat(44, ExposurePlot.SPAN_SECONDS)
                    .putFloat(48, hv.minEV()).putFloat(52, hv.maxEV()).putFloat(56, lineWidth).putInt(60, rgba);
            return b;
        }
    }

    /** Where everything goes for one output size; every size follows the font's line height. */
    record HudLayout(FontAtlas font, int width, int height, int lines, int longest, boolean withPlot) {
        static HudLayout of(FontAtlas font, int width, int height, List<String> lines, boolean withPlot) {
            return new HudLayout(font, width, height, lines.size(), lines.stream().mapToInt(String::length).max().orElse(0), withPlot);
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
            return new Rect(pad(), pad(), Math.min(width - pad(), 2 * pad() + font.textWidth("x".repeat(longest))),
                    2 * pad() + lines * font.lineHeight());
        }

        private float graphW() {
            return Math.max(1, Math.min((width - 3f * pad()) / 2, 36f * font.advance()));
        }

        private float graphH() {
            return Math.max(1, Math.min(height / 3f, 10f * font.lineHeight()));
        }

        Rect histogram() {
            return new Rect(pad(), height - pad() - graphH(), graphW(), graphH());
        }

        Rect histogramArea() {
            Rect r = histogram();
            float top = font.lineHeight() + pad();
            return new Rect(r.x() + pad(), r.y() + top, r.w() - 2 * pad(), Math.max(1, r.h() - top - pad()));
        }

        Rect plot() {
            return new Rect(width - pad() - graphW(), height - pad() - graphH(), graphW(), graphH());
        }

        /** The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis. */
        Rect plotArea() {
            Rect r = plot();
            float left = font.advance() * 4.5f;
            float top = font.lineHeight() + pad();
            float bottom = font.lineHeight() / 2f + pad();
            return new Rect(r.x() + left, r.y() + top, Math.max(1, r.w() - left - pad()), Math.max(1, r.h() - top - bottom));
        }

        float evToY(float ev, float low, float high) {
            Rect a = plotArea();
            return a.y() + a.h() * (1 - (ev - low) / (high - low));
        }

        /** EV values with a grid line: every 10 EV (every 5 when the range is narrow), inside the range. */
        List<Float> gridEVs(float low, float high) {
            float step = high - low > 20 ? 10 : 5;
            List<Float> out = new ArrayList<>();
            for (float ev = (float) Math.ceil(low / step) * step; ev <= high; ev += step) {
                out.add(ev);
            }
            return out;
        }
    }

    @Override
    public void close() {
        pipelines.close();
        for (GpuBuffer b : text) {
            b.close();
        }
        if (atlas != null) {
            atlas.close();
        }
    }
}

package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.vk.GpuBuffer;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.internal.hud.HudLayout.Rect;
import dev.tally.hud.HudOverlay.HistogramView;
import dev.tally.shader.BindingType;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.GraphicsPipeline;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.PipelinesByFormat;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

/**
 * The HUD as a graphics pass (hud.vert, hud.frag) over any color target: the scene's ranges drawn one by
 * one, blended over the image, giving the pixels the compute path gives. One pipeline per target format.
 */
final class HudGraphicsPath implements AutoCloseable {
    private static final int PUSH_BYTES = 64;
    private static final int MODE_TEXT = 0, MODE_HISTOGRAM = 1, MODE_RECT = 2, MODE_PLOT = 3;

    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final PipelinesByFormat pipelines = new PipelinesByFormat(this::build);

    HudGraphicsPath(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
    }

    private GraphicsPipeline build(int format) {
        return new GraphicsPipeline(ctx, compiler, cache, "hud.vert", "hud.frag", ExposurePlotNode.recordDefines(), format, true,
                List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER,
                        BindingType.STORAGE_BUFFER), PUSH_BYTES);
    }

    /** Rebuilds the pipelines from the current shader sources; on failure the old ones stay and it throws. */
    void reload() {
        pipelines.reload();
    }

    /**
     * Adds the pass drawing {@code scene} over {@code target}, a {@code width x height} image of {@code format}, its
     * {@code count} glyphs from {@code slot} (written and flushed when they were built; the graphics path reads no scene header).
     */
    ImageHandle add(GraphDeclaration g, String name, ImageHandle target, int format, int width, int height, HudScene scene, HudLayout layout,
                    TrackedBuffer slot, int count, TrackedBuffer atlasBuffer, FontAtlas f, HistogramView histogram, ExposurePlot.View plot,
                    float lineWidth) {
        if (g.frame() != poolFrame) {   // a new frame: the passes' data of the frame before can no longer be recorded
            poolFrame = g.frame();
            poolUsed = 0;
        }
        if (poolUsed == pool.length) {
            pool = java.util.Arrays.copyOf(pool, 2 * pool.length);
        }
        if (pool[poolUsed] == null) {
            pool[poolUsed] = new Io();
        }
        Io io = pool[poolUsed++];
        io.declare(target, histogram, plot);
        io.pipeline = pipelines.get(format);
        io.scene = scene;
        io.histogramArea = layout.histogramArea();
        io.plotArea = layout.plotArea();
        io.slot = slot;
        io.count = count;
        io.atlasBuffer = atlasBuffer;
        io.width = width;
        io.height = height;
        io.atlasWidth = f.width();
        io.lineWidth = lineWidth;
        return g.addPass(name, PassKind.GRAPHICS, setup, record).target;
    }

    /**
     * One HUD pass's data: its handles and what its draws need, set while it is declared. Pooled per frame (a frame may
     * draw several HUDs): a frame's passes are recorded before the next frame is declared, or never.
     */
    private static final class Io {
        private ImageHandle declaredTarget, target;
        private HistogramView histogram;
        private ExposurePlot.View plot;
        private BufferHandle normalized, exposure, plotRing;
        private GraphicsPipeline pipeline;
        private HudScene scene;
        private Rect histogramArea, plotArea;
        private TrackedBuffer slot, atlasBuffer;
        private int count, width, height, atlasWidth;
        private float lineWidth;
        private final Bindings bindings = new Bindings(5);

        void declare(ImageHandle target, HistogramView histogram, ExposurePlot.View plot) {
            this.declaredTarget = target;
            this.histogram = histogram;
            this.plot = plot;
        }
    }

    private Io[] pool = new Io[2];
    private int poolUsed;
    private long poolFrame = -1;

    private final java.util.function.Function<dev.tally.graph.PassBuilder, Io> setup = b -> {
        Io io = pool[poolUsed - 1];
        io.target = b.colorAttachment(io.declaredTarget, null);
        io.normalized = b.read(io.histogram.normalized(), Access.GRAPHICS_READ);
        io.exposure = b.read(io.histogram.exposure(), Access.GRAPHICS_READ);
        io.plotRing = io.plot == null ? null : b.read(io.plot.ring(), Access.GRAPHICS_READ);
        return io;
    };

    private final java.util.function.BiConsumer<Io, PassContext> record = HudGraphicsPath::draw;

    private static void draw(Io io, PassContext c) {
        Bindings bindings = bindings(io, c);
        HudScene scene = io.scene;
        GraphicsPipeline pipeline = io.pipeline;
        Rect ha = io.histogramArea;
        Rect area = io.plotArea;
        int count = io.count;
        VkCommandBuffer cmd = c.cmd();
        // One pipeline, one set, one viewport for every draw of the pass: bound once, then each draw pushes its shape.
        pipeline.bind(cmd, bindings, c.width(), c.height());
        try (MemoryStack stack = MemoryStack.stackPush()) {
            for (int r = 0; r < scene.ranges(); r++) {
                int n = Math.min(scene.count(r), scene.kind(r) == HudScene.KIND_GLYPHS ? count - scene.first(r) : Integer.MAX_VALUE);
                switch (scene.kind(r)) {
                    case HudScene.KIND_RECTS -> {
                        for (int i = scene.first(r); i < scene.first(r) + n; i++) {
                            pipeline.drawBound(cmd, push(stack, io, MODE_RECT, scene.rect(i, 0), scene.rect(i, 1),
                                    scene.rect(i, 2) - scene.rect(i, 0), scene.rect(i, 3) - scene.rect(i, 1), scene.rectRgba(i)), PUSH_BYTES, 6);
                        }
                    }
                    case HudScene.KIND_HISTOGRAM -> pipeline.drawBound(cmd, push(stack, io, MODE_HISTOGRAM, ha.x(), ha.y(), ha.w(), ha.h(), 0), PUSH_BYTES,
                            6 * n);
                    case HudScene.KIND_PLOT -> pipeline.drawBound(cmd, push(stack, io, MODE_PLOT, area.x(), area.y(), area.w(), area.h(), 0), PUSH_BYTES,
                            6 * n);
                    default -> {
                        if (n > 0) {
                            pipeline.drawBound(cmd, push(stack, io, MODE_TEXT, 0, 0, 0, 0, scene.first(r)), PUSH_BYTES, 6 * n);
                        }
                    }
                }
            }
        }
    }

    /** The pass's five storage-buffer ranges, written into the pass's kept bindings. */
    private static Bindings bindings(Io io, PassContext c) {
        GpuBuffer exposure = c.buffer(io.exposure);
        GpuBuffer ring = io.plotRing == null ? exposure : c.buffer(io.plotRing);
        return io.bindings.clear().buffer(io.atlasBuffer, 0, io.atlasBuffer.size())
                .buffer(io.slot, HudScene.GLYPH_OFFSET, io.slot.size() - HudScene.GLYPH_OFFSET)
                .buffer(c.buffer(io.normalized), 0, 256 * 4)
                .buffer(exposure, 0, exposure.size())
                .buffer(ring, 0, ring.size());
    }

    /** Writes one draw's push constants on {@code stack} by address (no buffer wrapper per draw) and returns the address; see shaders/hud_push.glsl. */
    private static long push(MemoryStack stack, Io io, int mode, float x, float y, float w, float h, int rgbaOrFirst) {
        HistogramView hv = io.histogram;
        ExposurePlot.View plot = io.plot;
        long b = stack.nmalloc(4, PUSH_BYTES);
        org.lwjgl.system.MemoryUtil.memPutFloat(b, x);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 4, y);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 8, w);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 12, h);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 16, io.width);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 20, io.height);
        org.lwjgl.system.MemoryUtil.memPutInt(b + 24, mode);
        org.lwjgl.system.MemoryUtil.memPutInt(b + 28, io.atlasWidth);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 32, hv.minEV());
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 36, hv.binsPerEV());
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 40, plot == null ? 0 : plot.now());
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 44, ExposurePlotNode.SPAN_SECONDS);
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 48, hv.minEV());
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 52, hv.maxEV());
        org.lwjgl.system.MemoryUtil.memPutFloat(b + 56, io.lineWidth);
        org.lwjgl.system.MemoryUtil.memPutInt(b + 60, rgbaOrFirst);
        return b;
    }

    @Override
    public void close() {
        pipelines.close();
    }
}

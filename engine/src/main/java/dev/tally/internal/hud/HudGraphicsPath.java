package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.internal.hud.HudLayout.Rect;
import dev.tally.hud.HudOverlay.HistogramView;
import dev.tally.internal.shader.BindingType;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.GraphicsPipeline;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.PipelinesByFormat;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
     * Flushes the slot's {@code count} glyphs (the graphics path reads no scene header) and adds the pass
     * drawing {@code scene} over {@code target}, a {@code width x height} image of {@code format}.
     */
    ImageHandle add(GraphDeclaration g, String name, ImageHandle target, int format, int width, int height, HudScene scene, HudLayout layout,
                    TrackedBuffer slot, int count, TrackedBuffer atlasBuffer, FontAtlas f, HistogramView histogram, ExposurePlot.View plot,
                    float lineWidth) {
        Rect ha = layout.histogramArea();
        Rect area = layout.plotArea();
        slot.flush(HudScene.GLYPH_OFFSET, Math.max(4L, (long) count * TextLayout.GLYPH_BYTES));
        GraphicsPipeline pipeline = pipelines.get(format);
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
                                        scene.rect(i, 2) - scene.rect(i, 0), scene.rect(i, 3) - scene.rect(i, 1), scene.rectRgba(i)), PUSH_BYTES, c.width(), c.height(), 6);
                            }
                        }
                        case HudScene.KIND_HISTOGRAM -> pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_HISTOGRAM, ha.x(), ha.y(), ha.w(), ha.h(), 0), PUSH_BYTES,
                                c.width(), c.height(), 6 * n);
                        case HudScene.KIND_PLOT -> pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_PLOT, area.x(), area.y(), area.w(), area.h(), 0), PUSH_BYTES,
                                c.width(), c.height(), 6 * n);
                        default -> {
                            if (n > 0) {
                                pipeline.draw(c.cmd(), bindings, push.write(stack, MODE_TEXT, 0, 0, 0, 0, scene.first(r)), PUSH_BYTES, c.width(), c.height(), 6 * n);
                            }
                        }
                    }
                }
            }
        });
        return io.target();
    }

    private static List<DescriptorSets.Binding> bindings(PassContext c, TrackedBuffer atlasBuffer, TrackedBuffer slot,
                                                         BufferHandle normalized, BufferHandle exposureHandle, BufferHandle plotHandle) {
        GpuBuffer exposure = c.buffer(exposureHandle);
        GpuBuffer ring = plotHandle == null ? exposure : c.buffer(plotHandle);
        return List.of(DescriptorSets.Range.of(atlasBuffer, 0, atlasBuffer.size()),
                DescriptorSets.Range.of(slot, HudScene.GLYPH_OFFSET, slot.size() - HudScene.GLYPH_OFFSET),
                DescriptorSets.Range.of(c.buffer(normalized), 0, 256 * 4),
                DescriptorSets.Range.of(exposure, 0, exposure.size()), DescriptorSets.Range.of(ring, 0, ring.size()));
    }

    /** Push constants shared by every draw of one frame; see shaders/hud_push.glsl. */
    private record Push(int width, int height, int atlasWidth, HistogramView hv, ExposurePlot.View plot, float lineWidth) {
        /** Writes the push constants on {@code stack} by address (no buffer wrapper per draw) and returns the address. */
        long write(MemoryStack stack, int mode, float x, float y, float w, float h, int rgbaOrFirst) {
            long b = stack.nmalloc(4, PUSH_BYTES);
            org.lwjgl.system.MemoryUtil.memPutFloat(b, x);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 4, y);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 8, w);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 12, h);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 16, width);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 20, height);
            org.lwjgl.system.MemoryUtil.memPutInt(b + 24, mode);
            org.lwjgl.system.MemoryUtil.memPutInt(b + 28, atlasWidth);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 32, hv.minEV());
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 36, hv.binsPerEV());
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 40, plot == null ? 0 : plot.now());
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 44, ExposurePlotNode.SPAN_SECONDS);
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 48, hv.minEV());
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 52, hv.maxEV());
            org.lwjgl.system.MemoryUtil.memPutFloat(b + 56, lineWidth);
            org.lwjgl.system.MemoryUtil.memPutInt(b + 60, rgbaOrFirst);
            return b;
        }
    }

    @Override
    public void close() {
        pipelines.close();
    }
}

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
import dev.tally.shader.ShaderCompiler;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The statistics overlay: one graphics pass drawn over the tonemapped image with the built-in bitmap
 * font. Text comes from the CPU (a small per-frame buffer); the histogram bars and percentile markers
 * are drawn straight from the GPU buffers the exposure passes wrote, so they never leave the GPU.
 */
public final class HudOverlay implements AutoCloseable {
    /** Where the histogram panel goes and how bins map to EV (for the percentile markers). */
    public record HistogramView(BufferHandle normalized, BufferHandle exposure, float minEV, float binsPerEV) {
    }

    private static final int MAX_GLYPHS = 4096;
    private static final int GLYPH_BYTES = 16;
    private static final int PUSH_BYTES = 40;
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private final GpuBuffer font;
    private final GpuBuffer[] text;
    private final dev.tally.shader.PipelinesByFormat pipelines = new dev.tally.shader.PipelinesByFormat(this::build);
    private final int scale;

    public HudOverlay(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache, int scale) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.scale = scale;
        int[] words = BitmapFont.packedWords();
        try (dev.tally.vk.ConstructionGuard guard = new dev.tally.vk.ConstructionGuard()) {
            font = guard.add(new GpuBuffer(ctx, "hud.font", 4L * words.length, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD));
            ByteBuffer bytes = MemoryUtil.memByteBuffer(font.mappedAddress(), 4 * words.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            bytes.asIntBuffer().put(words);
            font.flush(0, font.size());
            text = new GpuBuffer[ctx.options().framesInFlight() + 1];
            for (int i = 0; i < text.length; i++) {
                text[i] = guard.add(new GpuBuffer(ctx, "hud.text" + i, (long) MAX_GLYPHS * GLYPH_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        MemoryKind.UPLOAD));
            }
            guard.done();
        }
    }

    private GraphicsPipeline build(int format) {
        return new GraphicsPipeline(ctx, compiler, cache, "hud.vert", "hud.frag", Map.of(), format, true,
                List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER),
                PUSH_BYTES);
    }

    /** Rebuilds pipelines from the current shader sources (hot reload); on failure the old ones stay. */
    public void reload() {
        pipelines.reload();
    }

    /**
     * Adds pass {@code hud}: {@code lines} of text top-left and the histogram bottom-left, over
     * {@code target} (in its format, as the graph knows it). Call once the frame's command buffer is free
     * (frames in flight paced), since the text is written to the frame's host-visible slot now.
     */
    public ImageHandle add(FrameGraph g, ImageHandle target, List<String> lines, HistogramView histogram) {
        GpuBuffer slot = text[(int) (g.frame() % text.length)];
        int glyphs = writeText(slot, lines);
        GraphicsPipeline pipeline = pipelines.get(g.desc(target).format());
        record Io(ImageHandle target, BufferHandle normalized, BufferHandle exposure) {
        }
        Io io = g.addPass("hud", PassKind.GRAPHICS, b -> new Io(b.colorAttachment(target, null),
                b.read(histogram.normalized(), Access.GRAPHICS_READ), b.read(histogram.exposure(), Access.GRAPHICS_READ)), (h, c) -> {
            List<DescriptorSets.Binding> bindings = List.of(DescriptorSets.Range.of(font, 0, font.size()),
                    DescriptorSets.Range.of(slot, 0, slot.size()), DescriptorSets.Range.of(c.buffer(h.normalized()), 0, 256 * 4),
                    DescriptorSets.Range.of(c.buffer(h.exposure()), 0, c.buffer(h.exposure()).size()));
            int w = c.width(), hgt = c.height();
            float panelW = Math.min(w - 16, 256 * 2), panelH = Math.min(hgt / 4f, 120);
            float px = 8, py = hgt - panelH - 8;
            float textH = (lines.size() * (BitmapFont.CELL_H + 2) + 8) * scale;
            float textW = 8 + maxLength(lines) * BitmapFont.CELL_W * scale;
            try (MemoryStack stack = MemoryStack.stackPush()) {
                pipeline.draw(c.cmd(), bindings, push(stack, 4, 4, textW, textH, w, hgt, 2, histogram), w, hgt, 6);
                pipeline.draw(c.cmd(), bindings, push(stack, px - 4, py - 4, panelW + 8, panelH + 8, w, hgt, 2, histogram), w, hgt, 6);
                pipeline.draw(c.cmd(), bindings, push(stack, px, py, panelW, panelH, w, hgt, 1, histogram), w, hgt, 6 * 258);
                if (glyphs > 0) {
                    pipeline.draw(c.cmd(), bindings, push(stack, 0, 0, 0, 0, w, hgt, 0, histogram), w, hgt, 6 * glyphs);
                }
            }
        });
        return io.target();
    }

    private static int maxLength(List<String> lines) {
        return lines.stream().mapToInt(String::length).max().orElse(0);
    }

    private ByteBuffer push(MemoryStack stack, float x, float y, float w, float h, int vw, int vh, int mode, HistogramView hv) {
        ByteBuffer b = stack.malloc(PUSH_BYTES);
        b.putFloat(0, x).putFloat(4, y).putFloat(8, w).putFloat(12, h).putFloat(16, vw).putFloat(20, vh)
                .putFloat(24, scale).putInt(28, mode).putFloat(32, hv.minEV()).putFloat(36, hv.binsPerEV());
        return b;
    }

    private int writeText(GpuBuffer slot, List<String> lines) {
        ByteBuffer out = MemoryUtil.memByteBuffer(slot.mappedAddress(), (int) slot.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int n = 0;
        float lineH = (BitmapFont.CELL_H + 2) * scale;
        for (int l = 0; l < lines.size(); l++) {
            String line = lines.get(l);
            int color = l == 0 ? 0xff80e0ff : 0xffffffff;
            for (int i = 0; i < line.length() && n < MAX_GLYPHS; i++) {
                char ch = line.charAt(i);
                if (ch == ' ') {
                    continue;
                }
                int code = ch < BitmapFont.FIRST || ch > BitmapFont.LAST ? '?' - BitmapFont.FIRST : ch - BitmapFont.FIRST;
                out.putFloat(n * GLYPH_BYTES, 8 + i * BitmapFont.CELL_W * scale).putFloat(n * GLYPH_BYTES + 4, 8 + l * lineH)
                        .putInt(n * GLYPH_BYTES + 8, code).putInt(n * GLYPH_BYTES + 12, color);
                n++;
            }
        }
        slot.flush(0, (long) n * GLYPH_BYTES);
        return n;
    }

    @Override
    public void close() {
        pipelines.close();
        for (GpuBuffer b : text) {
            b.close();
        }
        font.close();
    }
}

package dev.tally.hud;

import dev.tally.vk.GpuBuffer;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Places text as glyph instances for shaders/hud.vert: each glyph's bitmap lands on whole output
 * pixels, so the fragment shader reads the atlas texel for texel.
 */
final class TextLayout {
    /** One instance: float x, y; uint atlas origin; uint bitmap size; uint rgba (see hud_common.glsl). */
    static final int GLYPH_BYTES = 20;

    /** A glyph's bitmap at output pixel (x, y), top-left, with its atlas rectangle and colour. */
    record Placed(int x, int y, FontAtlas.Glyph glyph, int rgba) {
    }

    private final FontAtlas font;
    private final List<Placed> placed = new ArrayList<>();

    TextLayout(FontAtlas font) {
        this.font = font;
    }

    /** Adds {@code s} with its pen starting at {@code x} on baseline {@code baseline}; blanks add nothing. */
    TextLayout add(String s, int x, int baseline, int rgba) {
        for (int i = 0; i < s.length(); i++) {
            FontAtlas.Glyph g = font.glyph(s.charAt(i));
            if (g.width() > 0 && g.height() > 0) {
                placed.add(new Placed(x + i * font.advance() + g.xOffset(), baseline + g.yOffset(), g, rgba));
            }
        }
        return this;
    }

    List<Placed> placed() {
        return List.copyOf(placed);
    }

    /** Writes up to {@code max} instances into the mapped {@code buffer}; returns how many. */
    int write(GpuBuffer buffer, int max) {
        int n = Math.min(max, placed.size());
        ByteBuffer out = MemoryUtil.memByteBuffer(buffer.mappedAddress(), (int) buffer.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            Placed p = placed.get(i);
            FontAtlas.Glyph g = p.glyph();
            int at = i * GLYPH_BYTES;
            out.putFloat(at, p.x()).putFloat(at + 4, p.y()).putInt(at + 8, g.atlasX() | g.atlasY() << 16)
                    .putInt(at + 12, g.width() | g.height() << 16).putInt(at + 16, p.rgba());
        }
        buffer.flush(0, Math.max(4, (long) n * GLYPH_BYTES));
        return n;
    }
}

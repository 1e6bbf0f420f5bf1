package dev.tally.internal.hud;

import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Places text as glyph instances for the HUD's shaders (hud_common.glsl): each glyph's bitmap lands on
 * whole output pixels, so the shaders read the atlas texel for texel. Reusable: {@link #clear()} keeps
 * the storage, so a frame's text costs no allocation once the arrays have grown.
 */
final class TextLayout {
    /** One instance: float x, y; uint atlas origin; uint bitmap size; uint rgba (see hud_common.glsl). */
    static final int GLYPH_BYTES = 20;

    /** A glyph's bitmap at output pixel (x, y), top-left, with its atlas rectangle and colour. */
    record Placed(int x, int y, FontAtlas.Glyph glyph, int rgba) {
    }

    private final FontAtlas font;
    /** Ints per placed glyph in {@link #placed}. */
    private static final int STRIDE = 6;
    /** Per placed glyph: x, y, atlas origin (x | y << 16), bitmap size (w | h << 16), rgba, character: the instance as written, ready. */
    private int[] placed = new int[STRIDE * 256];
    private int count;
    /** Pixel bounds [x0, y0, x1, y1) of the glyphs placed since {@link #mark()}. */
    private int x0, y0, x1, y1;

    TextLayout(FontAtlas font) {
        this.font = font;
        mark();
    }

    FontAtlas font() {
        return font;
    }

    /** Forgets every glyph, keeping the storage. */
    void clear() {
        count = 0;
        mark();
    }

    /** Starts a new bounds accumulation ({@link #markedBounds}). */
    void mark() {
        x0 = y0 = Integer.MAX_VALUE;
        x1 = y1 = Integer.MIN_VALUE;
    }

    /** Pixel bounds of the glyphs since the last {@link #mark()}, into {@code out} [x0, y0, x1, y1); empty when none. */
    void markedBounds(int[] out) {
        if (x0 > x1) {
            Arrays.fill(out, 0);
        } else {
            out[0] = x0;
            out[1] = y0;
            out[2] = x1;
            out[3] = y1;
        }
    }

    int count() {
        return count;
    }

    /** Adds {@code s} with its pen starting at {@code x} on baseline {@code baseline}; blanks add nothing. */
    TextLayout add(CharSequence s, int x, int baseline, int rgba) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            FontAtlas.Glyph g = font.glyph(c);
            if (g.width() > 0 && g.height() > 0) {
                if (STRIDE * count + STRIDE > placed.length) {
                    placed = Arrays.copyOf(placed, placed.length * 2);
                }
                int gx = x + i * font.advance() + g.xOffset(), gy = baseline + g.yOffset();
                int at = STRIDE * count;
                placed[at] = gx;
                placed[at + 1] = gy;
                placed[at + 2] = g.atlasX() | g.atlasY() << 16;
                placed[at + 3] = g.width() | g.height() << 16;
                placed[at + 4] = rgba;
                placed[at + 5] = c;
                count++;
                x0 = Math.min(x0, gx);
                y0 = Math.min(y0, gy);
                x1 = Math.max(x1, gx + g.width());
                y1 = Math.max(y1, gy + g.height());
            }
        }
        return this;
    }

    List<Placed> placed() {
        List<Placed> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new Placed(placed[STRIDE * i], placed[STRIDE * i + 1], font.glyph((char) placed[STRIDE * i + 5]), placed[STRIDE * i + 4]));
        }
        return out;
    }

    /**
     * Writes up to {@code max} instances at {@code offset} of {@code out} (a direct buffer; native order, little-endian on every
     * platform LWJGL runs on, as the shaders read it);
     * returns how many. By address, checked once for the whole run: per-glyph buffer puts and their bounds checks were a
     * third of the HUD's CPU time (JFR on the H200 machine's CPU).
     */
    int write(ByteBuffer out, int offset, int max) {
        int n = Math.min(max, count);
        if (!out.isDirect() || offset < 0 || (long) offset + (long) n * GLYPH_BYTES > out.capacity()) {
            throw new IllegalArgumentException("internal: " + n + " glyph instances at " + offset + (out.isDirect() ? " overrun the " + out.capacity() + "-byte slot"
                    : " written to a heap buffer; the slot must be mapped memory"));
        }
        long base = MemoryUtil.memAddress0(out) + offset;
        int[] p = placed;
        for (int i = 0; i < n; i++) {
            long at = base + (long) i * GLYPH_BYTES;
            int from = STRIDE * i;
            MemoryUtil.memPutFloat(at, p[from]);
            MemoryUtil.memPutFloat(at + 4, p[from + 1]);
            MemoryUtil.memPutInt(at + 8, p[from + 2]);
            MemoryUtil.memPutInt(at + 12, p[from + 3]);
            MemoryUtil.memPutInt(at + 16, p[from + 4]);
        }
        return n;
    }
}

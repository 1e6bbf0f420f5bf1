package dev.tally.internal.hud;

import org.lwjgl.system.MemoryUtil;

import java.nio.IntBuffer;
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
    static final int GLYPH_INTS = GLYPH_BYTES / 4;

    /** A glyph's bitmap at output pixel (x, y), top-left, with its atlas rectangle and colour. */
    record Placed(int x, int y, FontAtlas.Glyph glyph, int rgba) {
    }

    private final FontAtlas font;
    /**
     * The placed glyphs as the shaders read them, {@link #GLYPH_INTS} ints each (x and y as float bits): a frame's text
     * reaches its upload slot in one bulk copy.
     */
    private int[] instances = new int[GLYPH_INTS * 256];
    /** Each placed glyph's character (for {@link #placed()}). */
    private char[] chars = new char[256];
    /** The line being added, copied out of its CharSequence. */
    private char[] text = new char[128];
    private int count;
    /** Pixel bounds [x0, y0, x1, y1) of the glyphs placed since {@link #mark()}. */
    private int x0, y0, x1, y1;
    /**
     * What each {@link #add} since the last {@link #clear()} laid out, by call: its text (in {@link #addedText}) and
     * {@link #ADDED_INTS} ints: length, pen x, baseline, colour, first glyph, glyphs placed, their bounds. A HUD lays out
     * much the same lines frame after frame: an add whose text, pen and colour are those of the same call last time, and
     * whose glyphs start at the same index, finds them still in place (every add before it wrote only below that index).
     */
    private char[][] addedText = new char[16][];
    private int[] added = new int[ADDED_INTS * 16];
    private static final int ADDED_INTS = 10;
    private int adds;
    /**
     * The memory of the last {@link #write} (its address), which holds instances [0, mirrored) as they are here except from
     * index {@code changedFrom}, the first glyph laid out since.
     */
    private long mirrorAddress;
    private int mirrored;
    private int changedFrom;

    TextLayout(FontAtlas font) {
        this.font = font;
        mark();
    }

    FontAtlas font() {
        return font;
    }

    /** Forgets every glyph, keeping the storage (and what each add laid out, for the next frame's). */
    void clear() {
        count = 0;
        adds = 0;
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

    /**
     * Adds {@code s} with its pen starting at {@code x} on baseline {@code baseline}; blanks add nothing. Every character
     * of every HUD line passes here each frame: room is made once per call, the characters are copied out in one call
     * (a StringBuilder's charAt per character, through CharSequence, cost a quarter of this loop), the glyph's fields
     * come from the font's packed table, and the bounds and count stay in locals until the end. A line laid out the same
     * way by the same call last time is not laid out again, and one that changed is laid out from its first changed character.
     */
    TextLayout add(CharSequence s, int x, int baseline, int rgba) {
        int n = s.length();
        reserve(count + n);
        if (text.length < n) {
            text = new char[Math.max(n, 2 * text.length)];
        }
        char[] t = text;
        if (s instanceof StringBuilder sb) {
            sb.getChars(0, n, t, 0);
        } else if (s instanceof String str) {
            str.getChars(0, n, t, 0);
        } else {
            for (int i = 0; i < n; i++) {
                t[i] = s.charAt(i);
            }
        }
        int call = adds++;
        if (call == addedText.length) {
            addedText = Arrays.copyOf(addedText, 2 * call);
            added = Arrays.copyOf(added, ADDED_INTS * 2 * call);
        }
        int m = ADDED_INTS * call;
        char[] last = addedText[call];
        if (last != null && added[m] == n && added[m + 1] == x && added[m + 2] == baseline && added[m + 3] == rgba && added[m + 4] == count
                && Arrays.equals(t, 0, n, last, 0, n)) {
            count += added[m + 5];
            if (added[m + 5] > 0) {
                x0 = Math.min(x0, added[m + 6]);
                y0 = Math.min(y0, added[m + 7]);
                x1 = Math.max(x1, added[m + 8]);
                y1 = Math.max(y1, added[m + 9]);
            }
            return this;
        }
        int first = count;
        // A HUD's changing line keeps its label and changes its figures: the glyphs of the characters before the first
        // that differs from last time are still in place when the line starts at the same glyph with the same pen and
        // colour. Those are counted and bounded (from the font's table) but not written again.
        int same = 0;
        if (last != null && added[m + 1] == x && added[m + 2] == baseline && added[m + 3] == rgba && added[m + 4] == first) {
            same = Arrays.mismatch(t, 0, n, last, 0, added[m]);
            same = same < 0 ? n : same;
        }
        if (last == null) {
            added[m + 4] = -1;   // no range yet
        }
        if (last == null || last.length < n) {
            char[] grown = new char[Math.max(n, last == null ? 64 : 2 * last.length)];
            if (last != null) {
                System.arraycopy(last, 0, grown, 0, same);
            }
            last = addedText[call] = grown;
        }
        System.arraycopy(t, same, last, same, n - same);
        int[] out = instances;
        char[] placedChars = chars;
        int[] table = font.packed();
        int advance = font.advance();
        int k = first;
        int written = Integer.MAX_VALUE;   // the first glyph this call writes
        int bx0 = Integer.MAX_VALUE, by0 = Integer.MAX_VALUE, bx1 = Integer.MIN_VALUE, by1 = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            char c = t[i];
            int g = FontAtlas.PACKED_INTS * FontAtlas.index(c);
            int size = table[g + 1];
            if (size != 0) {
                int gx = x + i * advance + table[g + 2], gy = baseline + table[g + 3];
                if (i >= same) {
                    written = Math.min(written, k);
                    int at = GLYPH_INTS * k;
                    out[at] = Float.floatToRawIntBits(gx);
                    out[at + 1] = Float.floatToRawIntBits(gy);
                    out[at + 2] = table[g];
                    out[at + 3] = size;
                    out[at + 4] = rgba;
                    placedChars[k] = c;
                }
                k++;
                bx0 = Math.min(bx0, gx);
                by0 = Math.min(by0, gy);
                bx1 = Math.max(bx1, gx + (size & 0xffff));
                by1 = Math.max(by1, gy + (size >>> 16));
            }
        }
        changedFrom = Math.min(changedFrom, written);
        count = k;
        int[] a = added;
        if ((a[m + 4] != first || a[m + 5] != k - first) && call + 1 < addedText.length) {
            // These glyphs took another range than this call's last time, so a later call's glyphs may not be where
            // it left them (say a frame whose text was given up half laid out): the next call lays out afresh, and as
            // its range then differs from its record's (none), so does the one after it, and so on.
            a[m + ADDED_INTS + 4] = -1;
        }
        a[m] = n;
        a[m + 1] = x;
        a[m + 2] = baseline;
        a[m + 3] = rgba;
        a[m + 4] = first;
        a[m + 5] = k - first;
        a[m + 6] = bx0;
        a[m + 7] = by0;
        a[m + 8] = bx1;
        a[m + 9] = by1;
        if (k > first) {
            x0 = Math.min(x0, bx0);
            y0 = Math.min(y0, by0);
            x1 = Math.max(x1, bx1);
            y1 = Math.max(y1, by1);
        }
        return this;
    }

    private void reserve(int glyphs) {
        if (glyphs > chars.length) {
            int grown = Math.max(glyphs, 2 * chars.length);
            instances = Arrays.copyOf(instances, GLYPH_INTS * grown);
            chars = Arrays.copyOf(chars, grown);
        }
    }

    List<Placed> placed() {
        List<Placed> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = GLYPH_INTS * i;
            out.add(new Placed((int) Float.intBitsToFloat(instances[at]), (int) Float.intBitsToFloat(instances[at + 1]), font.glyph(chars[i]),
                    instances[at + 4]));
        }
        return out;
    }

    /**
     * Writes up to {@code max} instances from index 0 of {@code out} (a little-endian view of mapped memory, as the shaders
     * read it); returns how many. One bulk copy: per-glyph puts and their bounds checks were a third of the HUD's CPU time
     * (JFR on the H200 machine's CPU). Into the memory of the last write, only the glyphs laid out since then are copied:
     * the instances before the first of them are there already.
     */
    int write(IntBuffer out, int max) {
        int n = Math.min(max, count);
        if (!out.isDirect() || (long) n * GLYPH_INTS > out.capacity()) {
            throw new IllegalArgumentException("internal: " + n + " glyph instances" + (out.isDirect() ? " overrun the " + 4L * out.capacity() + "-byte slot"
                    : " written to a heap buffer; the slot must be mapped memory"));
        }
        long address = MemoryUtil.memAddress(out, 0);
        int from = address == mirrorAddress ? Math.min(Math.min(changedFrom, mirrored), n) : 0;
        out.put(GLYPH_INTS * from, instances, GLYPH_INTS * from, GLYPH_INTS * (n - from));
        mirrorAddress = address;
        mirrored = n;
        changedFrom = Integer.MAX_VALUE;
        return n;
    }
}

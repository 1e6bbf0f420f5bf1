package dev.tally.internal.hud;

import org.lwjgl.stb.STBTTBakedChar;
import org.lwjgl.stb.STBTTFontinfo;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import static org.lwjgl.stb.STBTruetype.*;

/**
 * The HUD's monospace font (DejaVu Sans Mono, shipped under {@code tally/fonts/} with its license),
 * rasterized by stb_truetype at one pixel size into an 8-bit coverage atlas. Glyphs are drawn 1:1
 * at integer pixel positions, so the atlas is read texel for texel and needs no sampler.
 *
 * <p>Printable ASCII ({@value #FIRST}..{@value #LAST}) is baked; other characters draw as '?'.
 * Vertical metrics are in pixels with y down: a glyph's {@code yOffset} is the distance from the
 * baseline to its top row (negative above the baseline), so rows with {@code y > 0} are descenders.
 */
public final class FontAtlas {
    public static final int FIRST = 32;
    public static final int LAST = 126;
    public static final String RESOURCE = "/tally/fonts/DejaVuSansMono.ttf";
    /** Below this the glyphs stop being legible; the HUD never bakes smaller. */
    public static final int MIN_PIXEL_HEIGHT = 12;
    private static final int COUNT = LAST - FIRST + 1;
    private static final int MAX_ATLAS = 4096;

    /** One glyph's place in the atlas and its offset from the pen position on the baseline, in pixels. */
    public record Glyph(int atlasX, int atlasY, int width, int height, int xOffset, int yOffset) {
    }

    private final int pixelHeight;
    private final int width;
    private final int height;
    private final byte[] coverage;
    private final Glyph[] glyphs;
    /**
     * Per glyph, {@link #PACKED_INTS} ints as the HUD's glyph instance wants them: atlas origin (x | y << 16), bitmap size
     * (w | h << 16, 0 for a glyph with no pixels), x and y offset from the pen. The text layout reads these for every
     * character of every frame, so they sit side by side in one array instead of behind a record each.
     */
    private final int[] packed;
    static final int PACKED_INTS = 4;
    private final int advance;
    private final int ascent;
    private final int descent;

    private FontAtlas(int pixelHeight, int width, int height, byte[] coverage, Glyph[] glyphs, int advance, int ascent, int descent) {
        this.pixelHeight = pixelHeight;
        this.width = width;
        this.height = height;
        this.coverage = coverage;
        this.glyphs = glyphs;
        this.packed = new int[PACKED_INTS * glyphs.length];
        for (int i = 0; i < glyphs.length; i++) {
            Glyph g = glyphs[i];
            boolean inked = g.width() > 0 && g.height() > 0;
            packed[PACKED_INTS * i] = g.atlasX() | g.atlasY() << 16;
            packed[PACKED_INTS * i + 1] = inked ? g.width() | g.height() << 16 : 0;
            packed[PACKED_INTS * i + 2] = g.xOffset();
            packed[PACKED_INTS * i + 3] = g.yOffset();
        }
        this.advance = advance;
        this.ascent = ascent;
        this.descent = descent;
    }

    /**
     * Bakes the font so that a line (ascent + descent) is {@code pixelHeight} pixels tall.
     *
     * @param pixelHeight line height in pixels, {@value #MIN_PIXEL_HEIGHT}..512
     */
    public static FontAtlas bake(int pixelHeight) {
        if (pixelHeight < MIN_PIXEL_HEIGHT || pixelHeight > 512) {
            throw new IllegalArgumentException("font pixel height must be in " + MIN_PIXEL_HEIGHT + "..512, got " + pixelHeight);
        }
        ByteBuffer ttf = loadFont();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            STBTTFontinfo info = STBTTFontinfo.malloc(stack);
            if (!stbtt_InitFont(info, ttf)) {
                throw new IllegalStateException("stb_truetype cannot read the HUD font " + RESOURCE);
            }
            float scale = stbtt_ScaleForPixelHeight(info, pixelHeight);
            IntBuffer asc = stack.mallocInt(1), desc = stack.mallocInt(1), gap = stack.mallocInt(1);
            stbtt_GetFontVMetrics(info, asc, desc, gap);
            IntBuffer adv = stack.mallocInt(1), lsb = stack.mallocInt(1);
            stbtt_GetCodepointHMetrics(info, 'M', adv, lsb);
            int ascentPx = Math.round(asc.get(0) * scale);
            int descentPx = Math.round(-desc.get(0) * scale);
            int advancePx = Math.max(1, Math.round(adv.get(0) * scale));
            // The smallest square atlas (a multiple of 4 wide, so rows pack into 32-bit words) that holds every glyph.
            for (int size = 64; size <= MAX_ATLAS; size *= 2) {
                ByteBuffer pixels = MemoryUtil.memCalloc(size * size);
                try (STBTTBakedChar.Buffer chars = STBTTBakedChar.malloc(COUNT)) {
                    int rows = stbtt_BakeFontBitmap(ttf, pixelHeight, pixels, size, size, FIRST, chars);
                    if (rows <= 0) {
                        continue;   // did not fit: try the next size
                    }
                    int usedHeight = (rows + 3) & ~3;
                    byte[] coverage = new byte[size * usedHeight];
                    pixels.get(0, coverage, 0, Math.min(coverage.length, size * size));
                    Glyph[] glyphs = new Glyph[COUNT];
                    for (int i = 0; i < COUNT; i++) {
                        STBTTBakedChar c = chars.get(i);
                        glyphs[i] = new Glyph(c.x0(), c.y0(), c.x1() - c.x0(), c.y1() - c.y0(), Math.round(c.xoff()), Math.round(c.yoff()));
                    }
                    return new FontAtlas(pixelHeight, size, usedHeight, coverage, glyphs, advancePx, ascentPx, descentPx);
                } finally {
                    MemoryUtil.memFree(pixels);
                }
            }
            throw new IllegalStateException("HUD font at " + pixelHeight + " px does not fit a " + MAX_ATLAS + "^2 atlas");
        } finally {
            MemoryUtil.memFree(ttf);
        }
    }

    /** Line height for text that should be {@code fraction} of an output {@code outputHeight} pixels tall. */
    public static int pixelHeightFor(int outputHeight, double fraction) {
        return (int) Math.max(MIN_PIXEL_HEIGHT, Math.min(512, Math.round(outputHeight * fraction)));
    }

    private static ByteBuffer loadFont() {
        try (InputStream in = FontAtlas.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the HUD font " + RESOURCE + " is missing from the class path");
            }
            byte[] bytes = in.readAllBytes();
            return MemoryUtil.memAlloc(bytes.length).put(0, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the HUD font " + RESOURCE, e);
        }
    }

    /** The glyph of {@code c}; characters outside {@value #FIRST}..{@value #LAST} give '?'. */
    public Glyph glyph(char c) {
        return glyphs[index(c)];
    }

    /** {@code c}'s glyph index: into {@link #packed()} at {@link #PACKED_INTS} times it. */
    static int index(char c) {
        return (c >= FIRST && c <= LAST ? c : '?') - FIRST;
    }

    /** Every glyph's instance fields (see {@link #PACKED_INTS}); the layout's to read, not to change. */
    int[] packed() {
        return packed;
    }

    /** Coverage 0..255 of atlas texel (x, y), 0 outside the atlas. */
    public int coverage(int x, int y) {
        return x < 0 || y < 0 || x >= width || y >= height ? 0 : coverage[y * width + x] & 0xFF;
    }

    /** The atlas, row-major, {@link #width()} bytes per row: a copy. */
    public byte[] coverage() {
        return coverage.clone();
    }

    public int pixelHeight() {
        return pixelHeight;
    }

    /** Atlas width in texels (a multiple of 4). */
    public int width() {
        return width;
    }

    /** Atlas height in texels (a multiple of 4). */
    public int height() {
        return height;
    }

    /** Pen advance per character in pixels (monospace). */
    public int advance() {
        return advance;
    }

    /** Pixels from the top of a line to its baseline. */
    public int ascent() {
        return ascent;
    }

    /** Pixels from the baseline to the bottom of a line. */
    public int descent() {
        return descent;
    }

    /** Baseline-to-baseline distance. */
    public int lineHeight() {
        return ascent + descent;
    }

    /** Width in pixels of {@code s} on one line. */
    public int textWidth(String s) {
        return s.length() * advance;
    }
}

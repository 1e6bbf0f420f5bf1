package dev.tally.demo.app;

import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;

import static org.lwjgl.stb.STBEasyFont.stb_easy_font_print;
import static org.lwjgl.system.MemoryStack.stackPush;

/**
 * One line of text on an RGBA image, for the filmstrip's labels: stb_easy_font turns the text into quads (its
 * glyphs are rectangles, so no font file is needed) and each quad is filled, scaled by a whole number.
 */
final class EasyFontLabel {
    /** The font's line height in its own units: a line drawn at scale s is about 12 s pixels tall. */
    static final int LINE_HEIGHT = 12;
    /** Bytes per quad stb_easy_font writes: four vertices of x, y, z floats and an RGBA colour. */
    private static final int QUAD_BYTES = 64;

    private EasyFontLabel() {
    }

    /** Draws {@code text} in {@code rgb} with its top-left corner at (x, y), {@code scale} pixels per font unit. */
    static void draw(byte[] rgba, int width, int height, String text, int x, int y, int scale, int rgb) {
        try (MemoryStack stack = stackPush()) {
            // stb_easy_font's own sizing rule: about 270 bytes per character is always enough.
            ByteBuffer quads = stack.malloc(270 * Math.max(1, text.length()));
            int n = stb_easy_font_print(0, 0, text, null, quads);
            for (int q = 0; q < n; q++) {
                int at = q * QUAD_BYTES;
                // Vertex 0 is the quad's top-left corner, vertex 2 its bottom-right.
                int x0 = x + Math.round(quads.getFloat(at) * scale), y0 = y + Math.round(quads.getFloat(at + 4) * scale);
                int x1 = x + Math.round(quads.getFloat(at + 32) * scale), y1 = y + Math.round(quads.getFloat(at + 36) * scale);
                fill(rgba, width, height, x0, y0, x1, y1, rgb);
            }
        }
    }

    private static void fill(byte[] rgba, int width, int height, int x0, int y0, int x1, int y1, int rgb) {
        for (int py = Math.max(0, y0); py < Math.min(height, y1); py++) {
            for (int px = Math.max(0, x0); px < Math.min(width, x1); px++) {
                int i = 4 * (py * width + px);
                rgba[i] = (byte) (rgb >> 16);
                rgba[i + 1] = (byte) (rgb >> 8);
                rgba[i + 2] = (byte) rgb;
            }
        }
    }
}

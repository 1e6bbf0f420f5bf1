package dev.tally.internal.hud;

/**
 * Draws text into an RGBA image on the CPU with the same font and placement as the HUD: for
 * pictures assembled on the host (labels on a filmstrip).
 */
public final class TextRaster {
    private TextRaster() {
    }

    /**
     * Blends {@code s} in colour {@code rgb} (0xRRGGBB) over {@code rgba} (w x h, 4 bytes per pixel,
     * rows top first), its pen starting at {@code x} on baseline {@code baseline}; clipped to the image.
     */
    public static void draw(byte[] rgba, int w, int h, FontAtlas font, String s, int x, int baseline, int rgb) {
        TextLayout layout = new TextLayout(font).add(s, x, baseline, 0);
        int[] color = {rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff};
        for (TextLayout.Placed p : layout.placed()) {
            FontAtlas.Glyph g = p.glyph();
            for (int gy = 0; gy < g.height(); gy++) {
                int y = p.y() + gy;
                for (int gx = 0; gx < g.width() && y >= 0 && y < h; gx++) {
                    int px = p.x() + gx;
                    int a = font.coverage(g.atlasX() + gx, g.atlasY() + gy);
                    if (px < 0 || px >= w || a == 0) {
                        continue;
                    }
                    int i = 4 * (y * w + px);
                    for (int c = 0; c < 3; c++) {
                        int under = rgba[i + c] & 0xff;
                        rgba[i + c] = (byte) ((under * (255 - a) + color[c] * a + 127) / 255);
                    }
                }
            }
        }
    }
}

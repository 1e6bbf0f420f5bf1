package dev.tally.internal.hud;

import java.util.List;

/**
 * Where everything goes for one output size; every size follows the font's line height. Its rectangles
 * are worked out once: a frame of the same size and text shape reuses the layout (see {@link #same}).
 */
final class HudLayout {
    /** A rectangle in output pixels, y down; the layout's rectangles have whole-pixel edges. */
    record Rect(float x, float y, float w, float h) {
        /** The rectangle with each edge rounded to the nearest pixel boundary. */
        static Rect edges(float x0, float y0, float x1, float y1) {
            int l = Math.round(x0), t = Math.round(y0);
            return new Rect(l, t, Math.round(x1) - l, Math.round(y1) - t);
        }

        int x0() {
            return (int) x;
        }

        int y0() {
            return (int) y;
        }

        int x1() {
            return (int) (x + w);
        }

        int y1() {
            return (int) (y + h);
        }
    }

    private final FontAtlas font;
    private final int width, height, lines, longest;
    private final boolean withPlot;
    private final Rect textPanel, histogram, histogramArea, plot, plotArea;

    private HudLayout(FontAtlas font, int width, int height, int lines, int longest, boolean withPlot) {
        this.font = font;
        this.width = width;
        this.height = height;
        this.lines = lines;
        this.longest = longest;
        this.withPlot = withPlot;
        this.textPanel = new Rect(pad(), pad(), Math.min(width - pad(), 2 * pad() + longest * font.advance()),
                2 * pad() + lines * font.lineHeight());
        this.histogram = Rect.edges(pad(), height - pad() - graphH(), pad() + graphW(), height - pad());
        float top = font.lineHeight() + pad();
        Rect r = histogram;
        this.histogramArea = Rect.edges(r.x() + pad(), r.y() + top, r.x() + r.w() - pad(), r.y() + top + Math.max(1, r.h() - top - pad()));
        this.plot = Rect.edges(width - pad() - graphW(), height - pad() - graphH(), width - pad(), height - pad());
        // The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis.
        r = plot;
        float left = font.advance() * 4.5f;
        float bottom = font.lineHeight() / 2f + pad();
        this.plotArea = Rect.edges(r.x() + left, r.y() + top, r.x() + left + Math.max(1, r.w() - left - pad()),
                r.y() + top + Math.max(1, r.h() - top - bottom));
    }

    static HudLayout of(FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
        return new HudLayout(font, width, height, lines.size(), longest(lines), withPlot);
    }

    /** {@code previous} when it lays out the same (font, size, line count and longest line), else a new layout. */
    static HudLayout of(HudLayout previous, FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
        int longest = longest(lines);
        return previous != null && previous.same(font, width, height, lines.size(), longest, withPlot) ? previous
                : new HudLayout(font, width, height, lines.size(), longest, withPlot);
    }

    private static int longest(List<? extends CharSequence> lines) {
        int longest = 0;
        for (int i = 0; i < lines.size(); i++) {
            longest = Math.max(longest, lines.get(i).length());
        }
        return longest;
    }

    private boolean same(FontAtlas f, int w, int h, int n, int l, boolean p) {
        return font == f && width == w && height == h && lines == n && longest == l && withPlot == p;
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
        return textPanel;
    }

    private float graphW() {
        return Math.max(1, Math.min((width - 3f * pad()) / 2, 36f * font.advance()));
    }

    private float graphH() {
        return Math.max(1, Math.min(height / 3f, 10f * font.lineHeight()));
    }

    Rect histogram() {
        return histogram;
    }

    Rect histogramArea() {
        return histogramArea;
    }

    Rect plot() {
        return plot;
    }

    /** The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis. */
    Rect plotArea() {
        return plotArea;
    }

    float evToY(float ev, float low, float high) {
        Rect a = plotArea();
        return a.y() + a.h() * (1 - (ev - low) / (high - low));
    }

    /** EV between grid lines: every 10 EV (every 5 when the range is narrow). */
    float gridStep(float low, float high) {
        return high - low > 20 ? 10 : 5;
    }

    /** The lowest EV with a grid line; lines follow every {@code step} up to the range's top. */
    float firstGridEV(float low, float step) {
        return (float) Math.ceil(low / step) * step;
    }
}

package dev.tally.internal.hud;

import java.util.List;

/**
 * Where everything goes for one output size; every size follows the font's line height. Its rectangles
 * are worked out once per shape: a frame of the same size and text shape reuses them (see {@link #same}), another
 * shape rewrites them in place.
 */
final class HudLayout {
    /**
     * A rectangle in output pixels, y down; the layout's rectangles have whole-pixel edges. Written in place when
     * the layout is reshaped: a frame's passes read it while that frame is declared and recorded.
     */
    static final class Rect {
        private float x, y, w, h;

        private Rect set(float x, float y, float w, float h) {
            this.x = x;
            this.y = y;
            this.w = w;
            this.h = h;
            return this;
        }

        /** Sets each edge rounded to the nearest pixel boundary. */
        private Rect edges(float x0, float y0, float x1, float y1) {
            int l = Math.round(x0), t = Math.round(y0);
            return set(l, t, Math.round(x1) - l, Math.round(y1) - t);
        }

        float x() {
            return x;
        }

        float y() {
            return y;
        }

        float w() {
            return w;
        }

        float h() {
            return h;
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

        @Override
        public String toString() {
            return "Rect[x=" + x + ", y=" + y + ", w=" + w + ", h=" + h + "]";
        }
    }

    private FontAtlas font;
    private int width, height, lines, longest;
    private boolean withPlot;
    private final Rect textPanel = new Rect(), histogram = new Rect(), histogramArea = new Rect(), plot = new Rect(), plotArea = new Rect();

    private HudLayout(FontAtlas font, int width, int height, int lines, int longest, boolean withPlot) {
        reshape(font, width, height, lines, longest, withPlot);
    }

    /** Works the rectangles out for this shape, in place. */
    private void reshape(FontAtlas font, int width, int height, int lines, int longest, boolean withPlot) {
        this.font = font;
        this.width = width;
        this.height = height;
        this.lines = lines;
        this.longest = longest;
        this.withPlot = withPlot;
        textPanel.set(pad(), pad(), Math.min(width - pad(), 2 * pad() + longest * font.advance()), 2 * pad() + lines * font.lineHeight());
        histogram.edges(pad(), height - pad() - graphH(), pad() + graphW(), height - pad());
        float top = font.lineHeight() + pad();
        Rect r = histogram;
        histogramArea.edges(r.x() + pad(), r.y() + top, r.x() + r.w() - pad(), r.y() + top + Math.max(1, r.h() - top - pad()));
        plot.edges(width - pad() - graphW(), height - pad() - graphH(), width - pad(), height - pad());
        // The plot's lines: inside its panel, leaving room for the title, the EV labels and the time axis.
        r = plot;
        float left = font.advance() * 4.5f;
        float bottom = font.lineHeight() / 2f + pad();
        plotArea.edges(r.x() + left, r.y() + top, r.x() + left + Math.max(1, r.w() - left - pad()),
                r.y() + top + Math.max(1, r.h() - top - bottom));
    }

    static HudLayout of(FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
        return new HudLayout(font, width, height, lines.size(), longest(lines), withPlot);
    }

    /**
     * {@code previous}, reshaped in place where its shape (font, size, line count, longest line) differs, or a new
     * layout when there is none: the text's longest line changes length as its numbers do, and a new layout each
     * time would be the HUD's garbage. The layout is the overlay's for one frame at a time (one HUD pass a frame),
     * so nothing still reads the old shape.
     */
    static HudLayout of(HudLayout previous, FontAtlas font, int width, int height, List<? extends CharSequence> lines, boolean withPlot) {
        int longest = longest(lines);
        if (previous == null) {
            return new HudLayout(font, width, height, lines.size(), longest, withPlot);
        }
        if (!previous.same(font, width, height, lines.size(), longest, withPlot)) {
            previous.reshape(font, width, height, lines.size(), longest, withPlot);
        }
        return previous;
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

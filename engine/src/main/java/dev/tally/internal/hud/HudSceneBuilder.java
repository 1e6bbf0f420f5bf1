package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.internal.hud.HudLayout.Rect;
import dev.tally.hud.HudOverlay.HistogramView;

import java.util.List;
import java.util.Locale;

/**
 * Fills a frame's {@link HudScene} and {@link TextLayout}: the panels, the histogram and plot ranges, the
 * grid, the text lines and the labels, each glyph run a range of its own bounds. Keeps the last layout, so
 * that a frame of the same shape lays out nothing again; allocates nothing per frame.
 */
final class HudSceneBuilder {
    private static final int PANEL = 0x8c000000, GRID = 0x40ffffff;
    static final int TITLE = 0xffffe080, WHITE = 0xffffffff, APPLIED = 0xff40ccff, TARGET = 0xe6ffcc59;
    private static final int TEXT_BOX = 0, HISTOGRAM_BOX = 1, PLOT_BOX = 2;
    private static final String SPAN_LABEL = "last " + (int) ExposurePlotNode.SPAN_SECONDS + " s";
    /** The grid labels of whole EVs -100..100, made once when the class loads (immutable afterwards: no shared mutable state). */
    private static final List<String> EV_LABELS = java.util.stream.IntStream.rangeClosed(-100, 100)
            .mapToObj(v -> String.format(Locale.ROOT, "%+d", v)).toList();

    private final int[] glyphBounds = new int[4];
    /** The last frame's layout: the next frame of the same shape reuses it. */
    private HudLayout lastLayout;

    /** Refills {@code scene} and {@code glyphs} for a {@code width x height} output; the layout it used. */
    HudLayout build(HudScene scene, TextLayout glyphs, FontAtlas f, int width, int height, List<? extends CharSequence> lines,
                    HistogramView histogram, ExposurePlot.View plot, float lineWidth) {
        HudLayout layout = lastLayout = HudLayout.of(lastLayout, f, width, height, lines, plot != null);
        scene.reset(width, height);
        glyphs.clear();
        Rect t = layout.textPanel();
        scene.rect(TEXT_BOX, t.x0(), t.y0(), t.x1(), t.y1(), PANEL);
        Rect hr = layout.histogram();
        scene.rect(HISTOGRAM_BOX, hr.x0(), hr.y0(), hr.x1(), hr.y1(), PANEL);
        Rect ha = layout.histogramArea();
        // Bars and markers stay within the area but for the markers' rounding: two pixels of margin.
        scene.range(HISTOGRAM_BOX, HudScene.KIND_HISTOGRAM, 0, 258, ha.x0() - 2, ha.y0(), ha.x1() + 2, ha.y1());
        Rect pr = layout.plot();
        Rect area = layout.plotArea();
        if (plot != null) {
            scene.rect(PLOT_BOX, pr.x0(), pr.y0(), pr.x1(), pr.y1(), PANEL);
            float step = layout.gridStep(histogram.minEV(), histogram.maxEV());
            for (float ev = layout.firstGridEV(histogram.minEV(), step); ev <= histogram.maxEV(); ev += step) {
                int y = Math.round(layout.evToY(ev, histogram.minEV(), histogram.maxEV()) - 0.5f);
                scene.rect(PLOT_BOX, area.x0(), y, area.x1(), y + 1, GRID);
            }
            // Segment points lie inside the area (times in the window, EV clamped); caps reach half a line width out.
            int m = (int) Math.ceil(lineWidth / 2) + 2;
            scene.range(PLOT_BOX, HudScene.KIND_PLOT, 0, 2 * (ExposurePlotNode.CAPACITY - 1), area.x0() - m, area.y0() - m, area.x1() + m, area.y1() + m);
        }
        // One range per line: a compute tile meets one or two lines and culls the others by their bounds at once.
        // Past the range budget (the panels, histogram, plot and labels take 8) the last lines share one range.
        int separate = Math.min(lines.size(), HudScene.MAX_RANGES - 9);
        int from = 0;
        for (int l = 0; l < lines.size(); l++) {
            boolean own = l < separate;
            if (own || l == separate) {
                from = glyphs.count();
                glyphs.mark();
            }
            glyphs.add(lines.get(l), layout.textX(), layout.baseline(l), l == 0 ? TITLE : WHITE);
            if (own || l == lines.size() - 1) {
                glyphRange(scene, glyphs, TEXT_BOX, from);
            }
        }
        int mark = glyphs.count();
        glyphs.mark();
        glyphs.add("histogram", hr.x0() + f.advance() / 2, hr.y0() + f.ascent(), WHITE);
        glyphRange(scene, glyphs, HISTOGRAM_BOX, mark);
        if (plot != null) {
            mark = glyphs.count();
            glyphs.mark();
            glyphs.add("applied EV", pr.x0() + f.advance() / 2, pr.y0() + f.ascent(), APPLIED);
            glyphs.add("target EV", pr.x0() + f.advance() * 12, pr.y0() + f.ascent(), TARGET);
            float step = layout.gridStep(histogram.minEV(), histogram.maxEV());
            for (float ev = layout.firstGridEV(histogram.minEV(), step); ev <= histogram.maxEV(); ev += step) {
                String label = evLabel(ev);
                glyphs.add(label, (int) (area.x0() - f.advance() * (label.length() + 0.5f)),
                        (int) (layout.evToY(ev, histogram.minEV(), histogram.maxEV()) + f.ascent() / 2f), WHITE);
            }
            glyphs.add(SPAN_LABEL, pr.x1() - f.textWidth(SPAN_LABEL) - f.advance() / 2, pr.y0() + f.ascent(), WHITE);
            glyphRange(scene, glyphs, PLOT_BOX, mark);
        }
        return layout;
    }

    /** "+10", "-5", "+0": grid labels, formatted once per value. */
    private static String evLabel(float ev) {
        int v = Math.round(ev);
        if (v < -100 || v > 100 || v != ev) {
            return String.format(Locale.ROOT, "%+.0f", ev);
        }
        return EV_LABELS.get(v + 100);
    }

    private void glyphRange(HudScene scene, TextLayout glyphs, int box, int from) {
        int[] b = glyphBounds;
        glyphs.markedBounds(b);
        scene.range(box, HudScene.KIND_GLYPHS, from, glyphs.count() - from, b[0], b[1], b[2], b[3]);
    }
}

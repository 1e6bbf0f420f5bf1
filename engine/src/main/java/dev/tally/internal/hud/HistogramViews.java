package dev.tally.internal.hud;

import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.hud.HudOverlay.HistogramView;

/**
 * The histogram views an overlay made from auto-exposure results, kept from frame to frame: each frame graph issues the
 * same handles every time it comes round, so a view is made again only when a handle or a setting changed, and a steady
 * frame allocates none.
 */
final class HistogramViews {
    /** One for each frame graph the runtime declares frames in (each issues its own handles), and a spare. */
    private static final int KEPT = 4;
    private final HistogramView[] views = new HistogramView[KEPT];
    private int next;

    /** The view of {@code result}'s normalized histogram and exposure record, with {@code settings}' EV range. */
    HistogramView of(AutoExposure.Result result, ExposureSettings settings) {
        float minEV = settings.minEV(), maxEV = settings.maxEV(), binsPerEV = settings.binsPerEV();
        for (HistogramView h : views) {
            if (h != null && h.normalized() == result.normalized() && h.exposure() == result.exposure() && h.minEV() == minEV
                    && h.maxEV() == maxEV && h.binsPerEV() == binsPerEV) {
                return h;
            }
        }
        HistogramView made = new HistogramView(result.normalized(), result.exposure(), minEV, maxEV, binsPerEV);
        views[next] = made;
        next = (next + 1) % KEPT;
        return made;
    }
}

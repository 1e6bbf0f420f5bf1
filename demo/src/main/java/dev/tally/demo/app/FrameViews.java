package dev.tally.demo.app;

import dev.tally.graph.BufferHandle;
import dev.tally.hud.HudOverlay;

/**
 * The histogram view the demo's frame hands the HUD, kept from frame to frame: the graph issues the same handles each
 * time a frame graph comes round, so the view is made again only when a handle or a setting changed.
 */
final class FrameViews {
    /** Values kept per kind: one for each frame graph the runtime declares frames in (each issues its own handles), and a spare. */
    static final int KEPT = 4;
    private final HudOverlay.HistogramView[] histograms = new HudOverlay.HistogramView[KEPT];
    private int nextHistogram;

    HudOverlay.HistogramView histogram(BufferHandle normalized, BufferHandle exposure, float minEV, float maxEV, float binsPerEV) {
        for (HudOverlay.HistogramView h : histograms) {
            if (h != null && h.normalized() == normalized && h.exposure() == exposure && h.minEV() == minEV && h.maxEV() == maxEV
                    && h.binsPerEV() == binsPerEV) {
                return h;
            }
        }
        HudOverlay.HistogramView made = new HudOverlay.HistogramView(normalized, exposure, minEV, maxEV, binsPerEV);
        histograms[nextHistogram] = made;
        nextHistogram = (nextHistogram + 1) % KEPT;
        return made;
    }
}

package dev.tally.demo.app;

import dev.tally.graph.BufferHandle;
import dev.tally.hud.HudOverlay;
import dev.tally.readback.ReadbackRing;

import java.util.Arrays;
import java.util.List;

/**
 * What the demo's frame hands the HUD and the readback ring, kept from frame to frame: the graph issues the same
 * handles each frame, so the histogram view and the capture's regions are made again only when a handle or a
 * setting changed, and the capture list is one fixed-size view over a kept array (the ring copies it out).
 */
final class FrameViews {
    /** Values kept per kind: one for each frame graph the runtime declares frames in (each issues its own handles), and a spare. */
    static final int KEPT = 4;
    private final HudOverlay.HistogramView[] histograms = new HudOverlay.HistogramView[KEPT];
    private int nextHistogram;
    private final ReadbackRing.Region[] regions = new ReadbackRing.Region[3 * KEPT];
    private int nextRegion;
    private final ReadbackRing.Source[] sources = new ReadbackRing.Source[4];
    private final List<ReadbackRing.Source> capture = Arrays.asList(sources);

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

    /** The capture's sources: the pixel total, the exposure record, the normalized histogram and the probed texel. */
    List<ReadbackRing.Source> capture(BufferHandle total, long totalBytes, BufferHandle exposure, long exposureBytes, BufferHandle normalized,
                                      long normalizedBytes, ReadbackRing.ImageRegion probed) {
        sources[0] = region(total, totalBytes);
        sources[1] = region(exposure, exposureBytes);
        sources[2] = region(normalized, normalizedBytes);
        sources[3] = probed;
        return capture;
    }

    private ReadbackRing.Region region(BufferHandle source, long bytes) {
        for (ReadbackRing.Region r : regions) {
            if (r != null && r.source() == source && r.offset() == 0 && r.bytes() == bytes) {
                return r;
            }
        }
        ReadbackRing.Region made = ReadbackRing.Region.of(source, bytes);
        regions[nextRegion] = made;
        nextRegion = (nextRegion + 1) % regions.length;
        return made;
    }
}

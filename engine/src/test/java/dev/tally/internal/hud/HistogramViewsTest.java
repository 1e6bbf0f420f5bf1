package dev.tally.internal.hud;

import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.BufferHandle;
import dev.tally.hud.HudOverlay.HistogramView;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The views an overlay keeps of auto-exposure results (no GPU needed): the same result and settings give the same view
 * (a steady frame makes none), each frame graph's handles keep their own, and a changed handle or EV range makes a new one
 * that reads it. That the demo's frame, which draws its HUD this way, allocates nothing: FrameAllocationTest.
 */
class HistogramViewsTest {
    /** A handle of its own identity: the views compare handles by identity, as each frame graph issues them. */
    private static BufferHandle handle() {
        return new BufferHandle() {
            @Override
            public int resource() {
                return 0;
            }

            @Override
            public int version() {
                return 0;
            }
        };
    }

    private static AutoExposure.Result result() {
        return new AutoExposure.Result(handle(), handle(), handle(), handle());
    }

    @Test
    void aResultSeenBeforeGivesItsViewAgain() {
        HistogramViews views = new HistogramViews();
        ExposureSettings settings = ExposureSettings.DEFAULTS;
        AutoExposure.Result[] graphs = {result(), result(), result()};   // the runtime's frame graphs, each with its own handles
        HistogramView[] first = new HistogramView[graphs.length];
        for (int i = 0; i < graphs.length; i++) {
            first[i] = views.of(graphs[i], settings);
            assertSame(graphs[i].normalized(), first[i].normalized());
            assertSame(graphs[i].exposure(), first[i].exposure());
            assertEquals(settings.minEV(), first[i].minEV());
            assertEquals(settings.maxEV(), first[i].maxEV());
            assertEquals(settings.binsPerEV(), first[i].binsPerEV());
        }
        for (int frame = 0; frame < 30; frame++) {
            int i = frame % graphs.length;
            assertSame(first[i], views.of(graphs[i], settings), "frame " + frame + ": graph " + i + "'s view, kept");
        }
    }

    @Test
    void aChangedRangeOrHandleMakesANewView() {
        HistogramViews views = new HistogramViews();
        AutoExposure.Result r = result();
        HistogramView before = views.of(r, ExposureSettings.DEFAULTS);
        ExposureSettings wider = ExposureSettings.DEFAULTS.withRange(-14, 22);
        HistogramView widened = views.of(r, wider);
        assertNotSame(before, widened);
        assertEquals(-14, widened.minEV());
        assertEquals(22, widened.maxEV());
        AutoExposure.Result moved = new AutoExposure.Result(r.bins(), r.total(), handle(), r.exposure());
        HistogramView other = views.of(moved, wider);
        assertNotSame(widened, other);
        assertSame(moved.normalized(), other.normalized());
    }
}

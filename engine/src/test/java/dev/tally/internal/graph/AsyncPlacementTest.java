package dev.tally.internal.graph;

import dev.tally.graph.AsyncMode;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * AsyncPlacement's decision logic without a GPU: frames are "planned" through {@link AsyncPlacement#placeAsync}
 * and their spans fed back, a few frames late as the runtime reads them, from a model of each variant's cost.
 */
class AsyncPlacementTest {
    private static final int LAG = 3;

    /** Plans frames of {@code topology} and feeds each one's span {@code LAG} frames later. */
    private static final class Driver {
        final AsyncPlacement placement = new AsyncPlacement();
        final ArrayDeque<Object[]> inFlight = new ArrayDeque<>();
        final List<Boolean> placed = new ArrayList<>();

        void frames(String topology, AsyncMode mode, int n, DoubleSupplier mainSpan, DoubleSupplier asyncSpan) {
            for (int i = 0; i < n; i++) {
                boolean async = placement.placeAsync(topology, mode);
                placed.add(async);
                inFlight.addLast(new Object[]{new AsyncPlacement.Variant(topology, async), async ? asyncSpan.getAsDouble() : mainSpan.getAsDouble()});
                if (inFlight.size() > LAG) {
                    Object[] done = inFlight.pollFirst();
                    placement.frameSpan((AsyncPlacement.Variant) done[0], (Double) done[1]);
                }
            }
        }
    }

    private static DoubleSupplier around(double centre, long seed) {
        java.util.Random r = new java.util.Random(seed);
        return () -> centre + (r.nextDouble() - 0.5) * 20;   // +-10 us jitter
    }

    @Test
    void keepsAsyncWhenItIsFasterAndReportsTheSaving() {
        Driver d = new Driver();
        d.frames("t", AsyncMode.AUTO, 100, () -> 1000, () -> 700);
        assertEquals("async", d.placement.choice());
        assertEquals(300, d.placement.savedMicros(), 1e-9);
        assertEquals(1000, d.placement.medianSpanMicros(false), 1e-9);
        assertEquals(700, d.placement.medianSpanMicros(true), 1e-9);
        assertTrue(d.placed.subList(60, 100).stream().allMatch(b -> b), "after the trial every frame goes async");
    }

    @Test
    void keepsMainWhenAsyncIsSlowerAndSavesNothing() {
        Driver d = new Driver();
        d.frames("t", AsyncMode.AUTO, 100, around(500, 1), around(650, 2));
        assertEquals("main", d.placement.choice());
        assertEquals(0, d.placement.savedMicros());
        assertTrue(d.placed.subList(60, 100).stream().noneMatch(b -> b), "after the trial no frame goes async");
    }

    @Test
    void triesBothVariantsBeforeDecidingAndUsesMedians() {
        Driver d = new Driver();
        // Async is faster in the median but has one huge outlier; a mean would pick main.
        int[] k = {0};
        d.frames("t", AsyncMode.AUTO, 2 * AsyncPlacement.TRIAL_FRAMES + LAG, () -> 1000, () -> k[0]++ == 0 ? 1e6 : 900);
        assertEquals("async", d.placement.choice());
        assertEquals(100, d.placement.savedMicros(), 1e-9);
        long asyncFrames = d.placed.stream().filter(b -> b).count();
        assertTrue(asyncFrames >= AsyncPlacement.TRIAL_FRAMES && d.placed.size() - asyncFrames >= AsyncPlacement.TRIAL_FRAMES,
                "both variants ran at least " + AsyncPlacement.TRIAL_FRAMES + " frames: " + d.placed);
    }

    @Test
    void undecidedBeforeEnoughSpans() {
        Driver d = new Driver();
        d.frames("t", AsyncMode.AUTO, 2 * AsyncPlacement.TRIAL_FRAMES - 1 + LAG, () -> 1000, () -> 10);
        assertNull(d.placement.choice());
        assertTrue(Double.isNaN(d.placement.savedMicros()));
    }

    @Test
    void alternatesDuringTheTrialSoDriftHitsBothVariants() {
        Driver d = new Driver();
        // Load drifts upward frame after frame; async is 50 us faster at any moment. Trying one variant
        // after the other would charge the drift to the later one.
        int[] frame = {0};
        d.frames("t", AsyncMode.AUTO, 80, () -> 1000 + 10 * frame[0]++, () -> 950 + 10 * frame[0]++);
        assertEquals("async", d.placement.choice());
    }

    @Test
    void reChecksWhenTheTopologyChangesAndRemembersVerdicts() {
        Driver d = new Driver();
        d.frames("a", AsyncMode.AUTO, 100, () -> 1000, () -> 700);
        assertEquals("async", d.placement.choice());
        // A new topology where async loses: a new trial, spans of "a" still in flight do not count for it.
        d.frames("b", AsyncMode.AUTO, 100, () -> 400, () -> 800);
        assertEquals("main", d.placement.choice());
        assertTrue(d.placed.subList(100, 110).contains(true), "topology b tried async again instead of inheriting a's verdict");
        // Back to "a": its verdict stands, no new trial.
        int before = d.placed.size();
        d.frames("a", AsyncMode.AUTO, 10, () -> 1000, () -> 700);
        assertEquals("async", d.placement.choice());
        assertEquals(300, d.placement.savedMicros(), 1e-9);
        assertTrue(d.placed.subList(before, before + 10).stream().allMatch(b -> b));
    }

    @Test
    void lateSpansOfAnOldTopologyDoNotCountForTheNewOne() {
        AsyncPlacement p = new AsyncPlacement();
        // Frames of "a" planned, then the topology changes before their spans arrive.
        List<AsyncPlacement.Variant> old = new ArrayList<>();
        for (int i = 0; i < 2 * AsyncPlacement.TRIAL_FRAMES; i++) {
            old.add(new AsyncPlacement.Variant("a", p.placeAsync("a", AsyncMode.AUTO)));
        }
        List<AsyncPlacement.Variant> now = new ArrayList<>();
        for (int i = 0; i < 2 * AsyncPlacement.TRIAL_FRAMES; i++) {
            now.add(new AsyncPlacement.Variant("b", p.placeAsync("b", AsyncMode.AUTO)));
        }
        old.forEach(v -> p.frameSpan(v, v.async() ? 10 : 1000));     // "a": async far faster
        assertNull(p.choice(), "b decided from a's spans");
        now.forEach(v -> p.frameSpan(v, v.async() ? 1000 : 10));     // "b": main far faster
        assertEquals("main", p.choice());
    }

    @Test
    void onAndOffNeverTryAndReportNoChoice() {
        Driver on = new Driver();
        on.frames("t", AsyncMode.ON, 60, () -> 1000, () -> 10);
        assertTrue(on.placed.stream().allMatch(b -> b));
        assertNull(on.placement.choice());
        Driver off = new Driver();
        off.frames("t", AsyncMode.OFF, 60, () -> 1000, () -> 10);
        assertTrue(off.placed.stream().noneMatch(b -> b));
        assertNull(off.placement.choice());
        assertTrue(Double.isNaN(off.placement.savedMicros()));
    }
}

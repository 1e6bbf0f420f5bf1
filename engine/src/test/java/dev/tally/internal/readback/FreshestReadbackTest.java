package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.internal.engine.Engine;

import dev.tally.readback.TimeSource;

import dev.tally.readback.ReadbackStats;

import dev.tally.internal.vk.Waits;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Freshest mode on lavapipe with synchronization validation: at each frame's beginning the newest sample the
 * GPU has completed, with the right frame tag, lag and provenance, through polling and callbacks; never a wait.
 */
class FreshestReadbackTest {

    private record Seen(long frame, long lag, long deliveredAt, int word0, int word1, float[] dest, long completedNanos, double age,
                        TimeSource source, long threadId) {
    }

    @ParameterizedTest(name = "{0} frames in flight, {1} slots")
    @CsvSource({"2, 3", "3, 4", "3, 6"})
    void theNewestCompletedSampleEveryFrameWithoutWaiting(int framesInFlight, int slots) {
        int frames = 120;
        try (RingHarness h = new RingHarness("frames.inFlight=" + framesInFlight, "readback.slots=" + slots, "readback.mode=freshest")) {
            var ctx = Engine.of(h.tally).context();
            ReadbackRing ring = h.tally.readback("readback", 64);
            assertEquals(ReadbackRing.Mode.FRESHEST, ring.mode());
            float[] destination = new float[4];
            List<Seen> atThisBegin = new ArrayList<>();
            boolean[] insideBegin = {false};
            long testThread = Thread.currentThread().getId();
            ring.onSample(destination, d -> {
                assertTrue(insideBegin[0], "callbacks run inside beginFrame");
                atThisBegin.add(new Seen(d.frame(), d.lag(), d.deliveredAtFrame(), d.intAt(0), d.intAt(1), destination.clone(),
                        d.completedNanos(), d.ageMillis(), d.timeSource(), Thread.currentThread().getId()));
            });
            long[] captureNanos = new long[frames];
            long lastDelivered = -1;
            int delivered = 0, caughtUp = 0, lagBelowSlots = 0;
            for (int f = 0; f < frames; f++) {
                if (f % 5 == 4) {
                    // Let the GPU finish the previous frame (polling the timeline, not a counted wait): the next
                    // beginning must then deliver exactly that frame, one frame late.
                    while (ctx.completedValue() < h.values.get(f - 1)) {
                        Thread.onSpinWait();
                    }
                }
                long completedBefore = ctx.completedValue();
                long newestKnown = h.newestCompleteFrame(completedBefore);
                long beforeBegin = System.nanoTime();
                atThisBegin.clear();
                int frameNumber = f;
                h.frame((frame, g) -> {
                    // beginFrame has run: the callbacks for this beginning are in atThisBegin.
                    insideBegin[0] = false;
                    captureNanos[frameNumber] = System.nanoTime();
                    ring.capture(g, h.stats(g, 7, 9));
                });
                insideBegin[0] = true;   // armed for the next beginFrame (set after this frame was submitted)
                long afterBegin = System.nanoTime();
                assertTrue(atThisBegin.size() <= 1, "at most one every-frame sample per beginning: " + atThisBegin);
                if (newestKnown > lastDelivered) {
                    assertEquals(1, atThisBegin.size(), "frame " + f + ": frame " + newestKnown + " was complete before it began, nothing delivered");
                }
                if (f % 5 == 4) {
                    assertEquals(f - 1, atThisBegin.get(0).frame(), "after the GPU caught up, the previous frame is delivered");
                    caughtUp++;
                }
                for (Seen s : atThisBegin) {
                    assertEquals(f, s.deliveredAt());
                    assertEquals(f - s.frame(), s.lag(), "lag");
                    assertTrue(s.lag() >= 1 && s.lag() <= slots, "lag " + s.lag() + " outside 1.." + slots);
                    assertTrue(s.frame() >= newestKnown, "frame " + newestKnown + " was complete, yet older frame " + s.frame() + " was delivered");
                    assertTrue(s.frame() > lastDelivered, "samples go forward");
                    assertEquals((int) s.frame(), s.word0(), "the sample holds the frame it claims");
                    assertEquals(2 * (int) s.frame() + 1, s.word1());
                    assertEquals((int) s.frame(), Float.floatToRawIntBits(s.dest()[0]), "the caller's array holds the same payload");
                    assertEquals(9, Float.floatToRawIntBits(s.dest()[3]));
                    assertEquals(testThread, s.threadId(), "callbacks run on the caller's thread");
                    // Provenance: completed after its capture was declared and before this beginning returned.
                    assertTrue(s.completedNanos() >= captureNanos[(int) s.frame()] - 1_000_000,
                            "completed " + (captureNanos[(int) s.frame()] - s.completedNanos()) + " ns before its capture (" + s.source() + ")");
                    assertTrue(s.completedNanos() <= afterBegin + 1_000_000, "completed after its hand-out (" + s.source() + ")");
                    assertTrue(s.age() >= -1 && s.age() <= (afterBegin - captureNanos[(int) s.frame()]) / 1e6 + 1, "age " + s.age() + " ms");
                    if (s.lag() < slots) {
                        lagBelowSlots++;
                    }
                    lastDelivered = s.frame();
                    delivered++;
                }
                var latest = ring.latest();
                if (lastDelivered >= 0) {
                    assertEquals(lastDelivered, latest.orElseThrow().frame(), "polling sees the same newest sample");
                    assertEquals(lastDelivered, latest.get().intAt(0));
                } else {
                    assertTrue(latest.isEmpty());
                }
            }
            ReadbackStats stats = ring.stats();
            assertEquals(delivered, stats.samples(), "one callback per sample");
            assertEquals(lastDelivered + 1, stats.samples() + stats.superseded(), "every frame up to the last delivered one was delivered or superseded");
            assertEquals(frames / 5, caughtUp);
            assertTrue(lagBelowSlots > 0, "freshest never beat the fixed lag of " + slots);
            assertTrue(stats.lagMin() >= 1 && stats.lagMax() <= slots, stats.toString());
            assertEquals(0, stats.rejected());
            if (ring.timeSource() == TimeSource.CALIBRATED) {
                // lavapipe's timestamps already read CLOCK_MONOTONIC: only the count shows the pairing was made.
                assertTrue(ReadbackRingNode.of(ring).clockCalibrations() >= 1, "GPU times were converted without a calibration");
                // Each capture's completion timestamp reached the host copied at its frame's end: no query read through
                // the driver, which blocks on some drivers while the device works.
                assertEquals(0, ReadbackRingNode.of(ring).completionReadsThroughDriver(), "completion timestamps read through the driver");
            }
            assertEquals(0, stats.blockingWaits(), "the ring waited");
            assertEquals(0, ctx.waits().of(Waits.Cause.READBACK).count(), "readback waits, from the context's one counter");
            ring.close();
            assertEquals(0, h.validationMessages(), h::validationText);
        }
    }
}

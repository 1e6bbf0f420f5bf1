package dev.tally.internal.readback;

import dev.tally.readback.ReadbackCounters;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.TimeSource;

import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

/**
 * A ring's counters read where they live, at the moment of the call: the view a per-frame reader (the HUD's text)
 * keeps, made once with its ring, where {@link ReadbackRing#stats()} makes a snapshot record per call. The values
 * mean what {@link ReadbackStats}'s do.
 */
final class RingCounters implements ReadbackCounters {
    private final ReadbackRing ring;
    private final SampleHandOut handOut;
    private final FrameDelivery delivery;
    private final VulkanContext ctx;

    RingCounters(ReadbackRing ring, SampleHandOut handOut, FrameDelivery delivery, VulkanContext ctx) {
        this.ring = ring;
        this.handOut = handOut;
        this.delivery = delivery;
        this.ctx = ctx;
    }

    @Override public int slots() { return ring.slotCount(); }
    @Override public ReadbackRing.Mode mode() { return ring.mode(); }
    @Override public TimeSource timeSource() { return ring.timeSource(); }
    @Override public long samples() { return handOut.samples(); }
    @Override public long lagFrames() { return handOut.lastLag(); }
    @Override public long lagMin() { return handOut.lagMin(); }
    @Override public long lagMax() { return handOut.lagMax(); }
    @Override public double ageMillisMedian() { return handOut.ageMillisMedian(); }
    @Override public long stale() { return handOut.stale(); }
    @Override public long rejected() { return handOut.rejected(); }
    @Override public long notReady() { return delivery.notReady(); }
    @Override public long blockingWaits() { return ctx.waits().count(Waits.Cause.READBACK); }

    /** The counters as they read now, for a log line (made per call: not for a frame loop). */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "ReadbackCounters[slots=%d, mode=%s, timeSource=%s, samples=%d, lag=%d (%d..%d), ageMillisMedian=%.3f, "
                        + "stale=%d, rejected=%d, notReady=%d, blockingWaits=%d]", slots(), mode(), timeSource(), samples(), lagFrames(), lagMin(),
                lagMax(), ageMillisMedian(), stale(), rejected(), notReady(), blockingWaits());
    }
}

package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;
import dev.tally.readback.TimeSource;

import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

/**
 * A ring's counters read where they live, at the moment of the call: the view a per-frame reader (the HUD's text)
 * keeps, made once with its ring, where {@link ReadbackRing#stats()} makes a snapshot record per call. The values
 * mean what {@link ReadbackStats}'s do.
 */
public final class ReadbackCounters {
    private final ReadbackRing ring;
    private final SampleHandOut handOut;
    private final FrameDelivery delivery;
    private final VulkanContext ctx;

    ReadbackCounters(ReadbackRing ring, SampleHandOut handOut, FrameDelivery delivery, VulkanContext ctx) {
        this.ring = ring;
        this.handOut = handOut;
        this.delivery = delivery;
        this.ctx = ctx;
    }

    public int slots() { return ring.slotCount(); }
    public ReadbackRing.Mode mode() { return ring.mode(); }
    public TimeSource timeSource() { return ring.timeSource(); }
    public long samples() { return handOut.samples(); }
    public long lagFrames() { return handOut.lastLag(); }
    public long lagMin() { return handOut.lagMin(); }
    public long lagMax() { return handOut.lagMax(); }
    public double ageMillisMedian() { return handOut.ageMillisMedian(); }
    public long stale() { return handOut.stale(); }
    public long rejected() { return handOut.rejected(); }
    public long notReady() { return delivery.notReady(); }
    public long blockingWaits() { return ctx.waits().count(Waits.Cause.READBACK); }
}

package dev.tally.readback;

import dev.tally.readback.ReadbackRing;

/**
 * Ring counters, a snapshot ({@link ReadbackRing#stats()}): for HUDs, logs and tests that check the
 * ring never waited and never handed out a wrong frame's data.
 *
 * @param slots           the ring's slot count
 * @param samples         every-frame samples delivered
 * @param mode            how the ring delivers
 * @param lagFrames       the last every-frame sample's lag (the slot count in fixed mode's steady state)
 * @param notReady        fixed mode: a slot was due (about to be reused) but its frame had not completed: sample lost
 * @param blockingWaits   times the CPU waited for the GPU to read back (sync mode only)
 * @param lagMin          smallest lag delivered so far (0 before the first sample)
 * @param lagMax          largest lag delivered so far
 * @param ageMillisMedian median age at hand-out over the last 1024 samples (NaN before the first)
 * @param stale           samples older than {@code maxAgeFrames}, delivered flagged
 * @param rejected        samples whose GPU-written sequence number was not their frame's: never delivered
 * @param superseded      freshest mode: completed samples skipped because a newer one was complete too
 * @param oneShots        one-shot requests delivered
 * @param timeSource      how completion times are obtained on this device
 */
public record ReadbackStats(int slots, long samples, long lagFrames, long notReady, long blockingWaits, ReadbackRing.Mode mode,
                            long lagMin, long lagMax, double ageMillisMedian, long stale, long rejected, long superseded,
                            long oneShots, TimeSource timeSource) {
}

package dev.tally.readback;

/**
 * Ring counters. In steady state {@code lagFrames} equals the slot count and the last two are zero.
 *
 * @param notReady      a slot was due (about to be reused) but its frame had not completed: sample lost
 * @param blockingWaits the CPU waited for the GPU (only {@link ReadbackRing#drain()} or synchronous mode)
 */
public record ReadbackStats(int slots, long samples, long lagFrames, long notReady, long blockingWaits) {
}

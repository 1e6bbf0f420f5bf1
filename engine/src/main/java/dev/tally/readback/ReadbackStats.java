package dev.tally.readback;

/**
 * Ring counters. In steady state {@code lagFrames} equals the slot count and the last two are zero.
 *
 * @param notReady      a slot was due (about to be reused) but its frame had not completed: sample lost
 * @param blockingWaits times the CPU waited for the GPU to read back (synchronous mode), from the context's wait counters
 */
public record ReadbackStats(int slots, long samples, long lagFrames, long notReady, long blockingWaits) {
}

package dev.tally.readback;

/**
 * A ring's counters read where they live, at the moment of each call: the view a per-frame reader (a HUD's text)
 * keeps, with nothing allocated per read, where {@link ReadbackRing#stats()} makes a snapshot record per call. Each
 * value means what the {@link ReadbackStats} component of the same name does. Get it from {@link ReadbackRing#counters()}.
 */
public interface ReadbackCounters {
    /** {@return the ring's slot count} */
    int slots();

    /** {@return how the ring delivers} */
    ReadbackRing.Mode mode();

    /** {@return where the samples' completion times come from} */
    TimeSource timeSource();

    /** {@return samples delivered so far} */
    long samples();

    /** {@return the last delivered sample's lag, in frames} */
    long lagFrames();

    /** {@return the smallest lag delivered (0 before the first sample)} */
    long lagMin();

    /** {@return the largest lag delivered} */
    long lagMax();

    /**
     * {@return the median age at hand-out of the last samples, in milliseconds (NaN before the first)} Read it on the thread
     * that begins frames, as the samples are handed out there: the window it comes from is brought up to date by the read.
     */
    double ageMillisMedian();

    /** {@return samples delivered older than the ring's maximum age (flagged stale)} */
    long stale();

    /** {@return samples rejected because the GPU-written frame number was not their frame's} */
    long rejected();

    /** {@return frame beginnings at which the slot due was not yet complete (nothing delivered)} */
    long notReady();

    /** {@return CPU waits for readbacks (only the synchronous mode waits)} */
    long blockingWaits();
}

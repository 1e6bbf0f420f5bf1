package dev.tally.readback;

import dev.tally.readback.Delivery;
import dev.tally.readback.Sample;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A one-shot readback (a value read once, on a key press say): delivered exactly once, at the first frame
 * beginning after the GPU finished it, on that caller's thread; never waited for. Its future completes
 * with the sample, exceptionally when the stale-data guard rejects it, and is cancelled when its frame is
 * abandoned.
 */
public interface ReadbackRequest {
    /** The frame that captures it. */
    long frame();

    boolean isDone();

    /** The sample once delivered. */
    Optional<Sample> sample();

    /** Completes on the thread that begins the delivering frame. */
    CompletableFuture<Sample> future();
}

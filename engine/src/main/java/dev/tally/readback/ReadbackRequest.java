package dev.tally.readback;

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
    /** {@return the frame that captures it} */
    long frame();

    /** {@return whether it was delivered, rejected or cancelled (as its future's {@code isDone})} */
    boolean isDone();

    /** {@return the sample once delivered; empty before, and when it was rejected or cancelled} */
    Optional<Sample> sample();

    /** {@return the future, which completes on the thread that begins the delivering frame; never wait on it inside a frame} */
    CompletableFuture<Sample> future();
}

package dev.tally.internal.readback;

import dev.tally.readback.SampleListener;

import dev.tally.readback.ReadbackRequest;

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
public final class OneShotRequest implements ReadbackRequest {
    private final long frame;
    private final SampleListener listener;
    private final CompletableFuture<Sample> future = new CompletableFuture<>();

    OneShotRequest(long frame, SampleListener listener) {
        this.frame = frame;
        this.listener = listener;
    }

    /** The frame that captures it. */
    public long frame() {
        return frame;
    }

    public boolean isDone() {
        return future.isDone();
    }

    /** The sample once delivered. */
    public Optional<Sample> sample() {
        return future.isDone() && !future.isCompletedExceptionally() ? Optional.of(future.join()) : Optional.empty();
    }

    /** Completes on the thread that begins the delivering frame. */
    public CompletableFuture<Sample> future() {
        return future;
    }

    void deliver(DeliveredSlot d) {
        if (listener != null) {
            listener.delivered(d);
        }
        future.complete(d.toSample());
    }

    void reject(String why) {
        future.completeExceptionally(new IllegalStateException(why));
    }

    void cancel() {
        future.cancel(false);
    }
}

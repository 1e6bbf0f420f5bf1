package dev.tally;

/**
 * Command buffers for frames recorded in batches ({@link Frame#recordBatches}): per frame in flight, one
 * pool per lane (the async lane's on the async compute family when there is one), buffers reused frame
 * after frame. Waits only when the slot's previous frame is still running (pacing). Close it before
 * {@link Tally#close()}: after that, every method throws IllegalStateException.
 */
public interface LaneCommands extends AutoCloseable {
    /** Waits for the GPU (these pools' buffers may be pending), then destroys the pools. */
    @Override
    void close();
}

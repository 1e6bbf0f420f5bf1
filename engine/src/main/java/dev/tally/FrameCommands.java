package dev.tally;

import org.lwjgl.vulkan.VkCommandBuffer;

/**
 * Command buffers for callers that let Tally submit: one pool and buffer per frame in flight, chosen by
 * the frame's number. {@link #begin} waits only when the slot's previous frame (frame f - framesInFlight)
 * is still running: frame pacing. Keeps no frame count of its own. Close it before {@link Tally#close()}:
 * after that, every method throws IllegalStateException.
 */
public interface FrameCommands extends AutoCloseable {
    /**
     * Waits for the slot's previous frame if it is still running, then resets and begins its command buffer.
     *
     * @param frame the frame the buffer is for
     * @return the begun command buffer
     */
    VkCommandBuffer begin(Frame frame);

    /**
     * Ends the command buffer begun for a frame.
     *
     * @param cmd what {@link #begin} returned
     */
    void end(VkCommandBuffer cmd);

    /** {@return the number of buffers: one per frame in flight} */
    int framesInFlight();

    /** Waits for the GPU (these pools' buffers may be pending), then destroys the pools. */
    @Override
    void close();
}

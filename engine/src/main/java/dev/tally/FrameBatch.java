package dev.tally;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.util.List;

/**
 * One submission of a frame recorded in batches: its command buffer (ended), the queue it goes to (the
 * async compute queue, or the main one), and the values of the lane semaphore it waits for and signals.
 * Submit the batches in list order; the last one also carries the frame's timeline signal
 * ({@link Frame#signal(VkSubmitInfo2, MemoryStack)} adds it), or let {@link Frame#submit(List)} do all of it.
 * <p>
 * Tally rewrites its batch objects each frame (a frame allocates nothing): read a batch until its frame is
 * submitted, not later.
 */
public interface FrameBatch {
    /** {@return the queue lane the batch's passes run on: 0 the main lane, 1 the async compute lane} */
    int lane();

    /**
     * {@return true: the batch goes to the async compute queue of Tally's own device, which {@link Frame#submit(List)}
     * submits to; false: the main queue. A wrapped device has no second queue, so lanes are split on the main
     * queue and this is false throughout}
     */
    boolean asyncQueue();

    /** {@return the batch's command buffer, ended} */
    VkCommandBuffer cmd();

    /** {@return the lane semaphore (timeline) the waits and signal refer to} */
    long semaphore();

    /** {@return how many values of {@link #semaphore()} the batch waits for before any of its commands} */
    int waitCount();

    /**
     * {@return the value of {@link #semaphore()} waited for}
     *
     * @param i which wait, from 0 to {@link #waitCount()} - 1
     */
    long waitValue(int i);

    /** {@return the value of {@link #semaphore()} the batch signals; 0 when nothing waits for this batch} */
    long signalValue();

    /** {@return whether this is the frame's last batch: the one that must also carry the frame's timeline signal} */
    boolean last();

    /**
     * Fills {@code submit} with this batch's command buffer, waits (all commands wait) and signal.
     *
     * @param submit the caller's submit info, for {@code vkQueueSubmit2}
     * @param stack  where the lists are allocated; it must outlive the submit call
     */
    void fill(VkSubmitInfo2 submit, MemoryStack stack);
}

package dev.tally;

import dev.tally.graph.FrameGraph;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.util.List;

/**
 * One frame, from {@link Tally#beginFrame()} to its submission: its number, the timeline value its
 * submission signals, and its graph. Declare passes on {@link #graph()}, {@link #record} them into your
 * command buffer, then either add Tally's signal to your own {@code VkSubmitInfo2} ({@code vkQueueSubmit2})
 * or {@code VkSubmitInfo} ({@code vkQueueSubmit}) with {@code signal} and submit it yourself, or let Tally
 * {@code submit} it.
 * <p>
 * Forgetting the signal is reported at the next {@link Tally#beginFrame()}, naming this frame, before
 * anything could be freed while the GPU might still use it.
 * <p>
 * A frame belongs to the thread that began it: recording, submitting, signalling or abandoning it from
 * another thread throws IllegalStateException.
 * <p>
 * Tally reuses frame objects so that a frame allocates nothing: once submitted or abandoned, a frame refuses every
 * further operation until {@code frames.inFlight + 2} frames later, when the same object is handed out as a new
 * frame. Keep a frame's {@link #number()}, not the frame, beyond its submission.
 */
public interface Frame {
    /** {@return this frame's number: 0, 1, 2, ... (the one frame counter; rings, histories and timings follow it)} */
    long number();

    /** {@return the value this frame's submission signals on {@link #timelineSemaphore()}} */
    long timelineValue();

    /** {@return Tally's timeline semaphore: it reaches {@link #timelineValue()} when the GPU has finished this frame} */
    long timelineSemaphore();

    /** {@return this frame's graph: declare passes on it before {@link #record}} */
    FrameGraph graph();

    /**
     * Compiles (cached by topology), plans barriers and records every pass.
     * <p>
     * If it throws (a pass's callback failed, say), the frame stays unrecorded: {@link #abandon()} it, and reset the
     * command buffer rather than submit it, since what was recorded into it before the failure is incomplete.
     *
     * @param cmd the caller's command buffer, begun
     */
    void record(VkCommandBuffer cmd);

    /**
     * Records the frame in batches, one per run of passes on a queue lane (async compute passes on the
     * async queue when {@code async.mode} places them there), each command buffer ended. With one lane the
     * list holds one batch. Submit with {@link #submit(List)}, or yourself in list order: {@link FrameBatch#fill}
     * each, and {@link #signal(VkSubmitInfo2, MemoryStack)} on the last.
     * <p>
     * If it throws, the frame stays unrecorded, as with {@link #record}: {@link #abandon()} it, and submit none of the
     * command buffers it began, whose work is incomplete.
     *
     * @param commands where the batches' command buffers come from
     * @return the batches, in submission order
     */
    List<FrameBatch> recordBatches(LaneCommands commands);

    /**
     * Tally submits the batches of {@link #recordBatches} in order; the last signals this frame's timeline value.
     *
     * @param batches what {@link #recordBatches} returned
     */
    void submit(List<FrameBatch> batches);

    /**
     * As {@link #submit(List)}, with optional binary semaphores for a swapchain.
     *
     * @param batches      what {@link #recordBatches} returned
     * @param waitBinary   a semaphore the first batch waits for (the acquire), or 0
     * @param waitStage    the stage that waits for it
     * @param signalBinary a semaphore the last batch also signals (for present), or 0
     */
    void submit(List<FrameBatch> batches, long waitBinary, long waitStage, long signalBinary);

    /**
     * The submission hook: appends Tally's timeline signal (semaphore, value, all commands) to the
     * signal list of {@code submit}, which the caller then passes to {@code vkQueueSubmit2}.
     *
     * @param submit the caller's submit info
     * @param stack  where the new signal list is allocated; it must outlive the submit call
     */
    void signal(VkSubmitInfo2 submit, MemoryStack stack);

    /**
     * The submission hook for {@code vkQueueSubmit}: appends Tally's timeline semaphore to the signal list
     * of {@code submit} and its value to the {@code VkTimelineSemaphoreSubmitInfo} in the pNext chain
     * (extended when the caller chained one, for its own timeline waits or signals; chained otherwise).
     *
     * @param submit the caller's submit info
     * @param stack  where everything new is allocated; it must outlive the submit call
     */
    void signal(VkSubmitInfo submit, MemoryStack stack);

    /**
     * The submission hook for callers that build their own signal list. Call it for the submit that
     * carries this frame's command buffer.
     *
     * @param target filled with Tally's timeline signal
     */
    void signal(VkSemaphoreSubmitInfo target);

    /**
     * Tally submits {@code cmd}, signalling this frame's value.
     *
     * @param cmd the command buffer, ended by the caller
     */
    void submit(VkCommandBuffer cmd);

    /**
     * Tally submits {@code cmd} with optional binary semaphores.
     *
     * @param cmd          the command buffer, ended by the caller
     * @param waitBinary   a semaphore waited for at {@code waitStage} (a swapchain acquire), or 0
     * @param waitStage    the stage that waits
     * @param signalBinary a semaphore also signalled (for present), or 0
     */
    void submit(VkCommandBuffer cmd, long waitBinary, long waitStage, long signalBinary);

    /**
     * Gives up a frame that was not recorded (the swapchain went out of date, or {@link #record} threw): nothing of it reaches
     * the GPU and its readback captures are dropped. Its number is not reused, and its timeline value is
     * signalled by an empty submission, so that frame numbers and timeline values only grow.
     *
     * @throws IllegalStateException if the frame was recorded (submit it instead)
     */
    void abandon();
}

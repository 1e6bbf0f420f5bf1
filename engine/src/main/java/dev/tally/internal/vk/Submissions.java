package dev.tally.internal.vk;

import dev.tally.vk.VulkanException;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Every submission Tally makes or promises, and the timeline semaphore they signal. Timeline values are
 * handed out in order and never given back: a frame that is abandoned still signals its value (with an
 * empty submission), and a submission that fails leaves its value unused. Every door (a frame's own
 * submission, its batches, Tally's one-shot work, an abandoned frame's signal) goes through
 * {@link #queueSubmit}, where the {@link FaultInjector} sees it, the queue's lock is held and a lost
 * device is noticed. Waits on the timeline are bounded and counted in {@link #waits()}.
 */
public final class Submissions {
    private static final long WAIT_TIMEOUT_NS = 120_000_000_000L;

    private final VulkanDevice gpu;
    private final FaultInjector faults;
    private final Waits waits = new Waits();
    /** Held around every vkQueueSubmit2 and vkQueuePresentKHR on the main queue; a wrapping renderer may share its own. */
    private final Lock queueLock;
    private final Lock asyncQueueLock = new ReentrantLock();
    private final long timeline;
    /** The pool of one-shot command buffers ({@link #submitAndWait}). */
    private final long oneShotPool;
    /** The highest timeline value handed out (a frame's, or Tally's own); deferred destruction keys on it. */
    private long handedOut;
    /** The highest timeline value whose submission was made (or promised, by a frame's submission hook). */
    private long lastSubmitted;
    /**
     * The highest value a poll or a finished wait saw the timeline reach. The timeline only grows, so a value at or
     * under it has been reached without asking the driver again: most of a frame's checks are of values frames old.
     */
    private final AtomicLong seen = new AtomicLong();
    /** Polls of the timeline's value made so far (vkGetSemaphoreCounterValue calls). */
    private final AtomicLong polls = new AtomicLong();
    /** The value of the frame between its begin and its submission, 0 when none is open. */
    private long openFrameValue;
    private final DeviceLoss loss;

    Submissions(VulkanDevice gpu, DebugNames names, FaultInjector faults, Lock queueLock) {
        this.gpu = gpu;
        this.faults = faults;
        this.loss = new DeviceLoss(faults);
        this.queueLock = queueLock != null ? queueLock : new ReentrantLock();
        try (MemoryStack stack = stackPush()) {
            VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default()
                    .semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE).initialValue(0);
            VkSemaphoreCreateInfo createInfo = VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type.address());
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSemaphore(gpu.device(), createInfo, null, p), "vkCreateSemaphore(timeline)");
            timeline = p.get(0);
            names.nameObject(VK_OBJECT_TYPE_SEMAPHORE, timeline, "tally.timeline");
            try {
                oneShotPool = gpu.createCommandPool(stack, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, gpu.queueFamily());
            } catch (RuntimeException e) {
                vkDestroySemaphore(gpu.device(), timeline, null);
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- the frame's timeline value

    /**
     * Opens a frame: hands out the next timeline value, which the frame's submission must signal. Until
     * the frame is submitted or abandoned, Tally submits nothing of its own (a later value signalled
     * first would make the frame's signal invalid).
     */
    public synchronized long openFrame() {
        if (openFrameValue != 0) {
            throw new IllegalStateException("internal: timeline value " + openFrameValue + " is still open");
        }
        openFrameValue = ++handedOut;
        return openFrameValue;
    }

    /** The open frame's submission was made, or will be by the caller with the signal it was handed. */
    public synchronized void frameSubmitted(long value) {
        requireOpenFrame(value);
        lastSubmitted = value;
        openFrameValue = 0;
    }

    /**
     * The open frame will never carry work: an empty submission signals its value, so that the timeline
     * only grows and nothing waits for a value that never comes. On a lost device nothing is submitted.
     */
    public void frameAbandoned(long value) {
        synchronized (this) {
            requireOpenFrame(value);
        }
        boolean signalled = false;
        try {
            if (!loss.isLost()) {
                submitSignalling(null, value, NULL, 0, NULL, "abandoned frame's submission");
                signalled = true;
            }
        } finally {
            synchronized (this) {
                if (signalled) {
                    lastSubmitted = value;
                }
                openFrameValue = 0;
            }
        }
    }

    /** Submits the open frame's command buffer, signalling its timeline value. */
    public void submitFrame(VkCommandBuffer cmd, long value, long waitBinary, long waitStage, long signalBinary) {
        synchronized (this) {
            requireOpenFrame(value);
        }
        submitSignalling(cmd, value, waitBinary, waitStage, signalBinary, "submission");
        frameSubmitted(value);
    }

    /**
     * Submits one batch of the open frame (filled by the caller; the last batch carries the frame's
     * signal) to the main queue ({@code async} false) or the async compute queue; without an async queue
     * both go to the main queue. {@code what} names it in errors. {@link #frameSubmitted} follows the last.
     */
    public void submitFrameBatch(boolean async, long submitInfo, long frameValue, long frame, int batch, int lane) {
        synchronized (this) {
            requireOpenFrame(frameValue);
        }
        queueSubmit(async, submitInfo, frameValue, null, false, frame, batch, lane);
    }

    private void requireOpenFrame(long value) {
        if (value != openFrameValue) {
            throw new IllegalStateException("internal: timeline value " + value + " is not the open frame's (" + openFrameValue + ")");
        }
    }

    // ---------------------------------------------------------------- Tally's own submissions

    /**
     * Submits {@code cmd}, signalling the next timeline value, which is returned. Optional binary
     * semaphores serve swapchain acquire/present. Refused while a frame is open.
     */
    public long submit(VkCommandBuffer cmd, long waitBinary, long waitStage, long signalBinary) {
        long value;
        synchronized (this) {
            if (openFrameValue != 0) {
                throw new IllegalStateException("Tally cannot submit work of its own while the frame with timeline value " + openFrameValue
                        + " is open (its submission must come first); submit or abandon that frame first");
            }
            value = ++handedOut;   // a failed submission leaves it unused: the next value covers it
        }
        submitSignalling(cmd, value, waitBinary, waitStage, signalBinary, "submission");
        synchronized (this) {
            lastSubmitted = Math.max(lastSubmitted, value);
        }
        return value;
    }

    public long submit(VkCommandBuffer cmd) {
        return submit(cmd, NULL, 0, NULL);
    }

    /** Records with {@code recorder}, submits and waits. For tools and tests, not for frame loops. */
    public void submitAndWait(Consumer<VkCommandBuffer> recorder) {
        VkCommandBuffer cmd = gpu.allocateCommandBuffer(oneShotPool);
        boolean pending = false;
        try {
            VulkanDevice.beginOneTime(cmd);
            // Tools chain one-shot submissions (upload, then compute): order against everything earlier
            // on the queue, since a host wait alone does not make device writes visible to later commands.
            Barriers.memory(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
            recorder.accept(cmd);
            check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
            long value = submit(cmd);
            pending = true;
            waitFor(value, Waits.Cause.OTHER);
            pending = false;
        } finally {
            // A command buffer the GPU may still execute must not be freed: the pool reclaims it at close.
            if (!pending) {
                vkFreeCommandBuffers(gpu.device(), oneShotPool, cmd);
            }
        }
    }

    // ---------------------------------------------------------------- the one door

    /**
     * One submission of {@code cmd} (null: none) to the main queue, signalling {@code value} and an optional binary semaphore;
     * {@code kind} names it in errors, followed by its value (the message is made only on failure: nothing per frame).
     */
    private void submitSignalling(VkCommandBuffer cmd, long value, long waitBinary, long waitStage, long signalBinary, String kind) {
        try (MemoryStack stack = stackPush()) {
            // Every frame: the structs are written by address (static setters), without wrapper objects.
            long submit = stack.ncalloc(VkSubmitInfo2.ALIGNOF, 1, VkSubmitInfo2.SIZEOF);
            VkSubmitInfo2.nsType(submit, VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
            if (cmd != null) {
                long cmdInfo = stack.ncalloc(VkCommandBufferSubmitInfo.ALIGNOF, 1, VkCommandBufferSubmitInfo.SIZEOF);
                VkCommandBufferSubmitInfo.nsType(cmdInfo, VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
                MemoryUtil.memPutAddress(cmdInfo + VkCommandBufferSubmitInfo.COMMANDBUFFER, cmd.address());
                VkSubmitInfo2.ncommandBufferInfoCount(submit, 1);
                MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PCOMMANDBUFFERINFOS, cmdInfo);
            }
            int signalCount = signalBinary != NULL ? 2 : 1;
            long signals = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, signalCount, VkSemaphoreSubmitInfo.SIZEOF);
            semaphoreInfo(signals, timeline, value, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            if (signalBinary != NULL) {
                semaphoreInfo(signals + VkSemaphoreSubmitInfo.SIZEOF, signalBinary, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            }
            VkSubmitInfo2.nsignalSemaphoreInfoCount(submit, signalCount);
            MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, signals);
            if (waitBinary != NULL) {
                long wait = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, 1, VkSemaphoreSubmitInfo.SIZEOF);
                semaphoreInfo(wait, waitBinary, 0, waitStage);
                VkSubmitInfo2.nwaitSemaphoreInfoCount(submit, 1);
                MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PWAITSEMAPHOREINFOS, wait);
            }
            queueSubmit(false, submit, value, kind, true);
        }
    }

    /** Writes one VkSemaphoreSubmitInfo at {@code info} (zeroed memory). */
    private static void semaphoreInfo(long info, long semaphore, long value, long stages) {
        VkSemaphoreSubmitInfo.nsType(info, VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
        VkSemaphoreSubmitInfo.nsemaphore(info, semaphore);
        VkSemaphoreSubmitInfo.nvalue(info, value);
        VkSemaphoreSubmitInfo.nstageMask(info, stages);
    }

    /**
     * The one vkQueueSubmit2 call: refused on a lost device, offered to the fault injector as submission
     * {@code value} (every batch of a frame counts as its frame's value), made under the queue's lock;
     * a failure is thrown naming {@code what} (followed by the value where {@code withValue}), and a lost device is remembered.
     */
    private void queueSubmit(boolean async, long pSubmit, long value, String what, boolean withValue) {
        queueSubmit(async, pSubmit, value, what, withValue, -1, 0, 0);
    }

    /** As above; a null {@code what} names batch {@code batch} of frame {@code frame} on {@code lane}, built only on failure. */
    private void queueSubmit(boolean async, long pSubmit, long value, String what, boolean withValue, long frame, int batch, int lane) {
        if (loss.isLost()) {
            loss.refuseIfLost(label(what, withValue, value, frame, batch, lane));
        }
        int injected = faults.beforeSubmit(value);
        int result;
        if (injected != VK_SUCCESS) {
            result = injected;
        } else {
            boolean second = async && gpu.asyncQueue() != null;
            Lock lock = second ? asyncQueueLock : queueLock;
            lock.lock();
            try {
                result = QueueSubmit2.call(second ? gpu.asyncQueue() : gpu.queue(), 1, pSubmit, VK_NULL_HANDLE);
            } finally {
                lock.unlock();
            }
        }
        if (result < 0) {
            String where = label(what, withValue, value, frame, batch, lane) + " (vkQueueSubmit2" + (injected != VK_SUCCESS ? ", injected by debug.injectFault=" + faults.plan().spec() : "") + ")";
            if (result == VK_ERROR_DEVICE_LOST) {
                loss.mark(where);
            }
            check(result, where);
        }
    }

    /** What a failed submit names: {@code what} (and the value), or a frame's batch when {@code what} is null. */
    private static String label(String what, boolean withValue, long value, long frame, int batch, int lane) {
        if (what == null) {
            return "submission " + value + " (frame " + frame + ", batch " + batch + " on lane " + lane + ")";
        }
        return withValue ? what + " " + value : what;
    }

    // ---------------------------------------------------------------- completion, waits, device loss

    /** The highest timeline value the GPU has reached; never waits. After a loss: everything submitted. */
    public long completedValue() {
        if (loss.isLost()) {
            loss.drainOnce(gpu.device());
            return raiseSeen(lastSubmitted());
        }
        try (MemoryStack stack = stackPush()) {
            // By address: a LongBuffer wrapper would be garbage each time.
            long p = stack.nmalloc(8, 8);
            polls.incrementAndGet();
            int result = nvkGetSemaphoreCounterValue(gpu.device(), timeline, p);
            if (result == VK_ERROR_DEVICE_LOST) {
                loss.mark("vkGetSemaphoreCounterValue");
            }
            check(result, "vkGetSemaphoreCounterValue");
            return raiseSeen(MemoryUtil.memGetLong(p));
        }
    }

    /**
     * True once the timeline has reached {@code value}: at once when a poll or wait saw it reach that far already,
     * else by a poll ({@link #completedValue}). Never waits.
     */
    public boolean reached(long value) {
        return value <= seen.get() || completedValue() >= value;
    }

    /** The driver polls of the timeline's value made so far: a frame makes one or two (its begin, and a pacing check the seen value does not answer). */
    public long polls() {
        return polls.get();
    }

    /** The highest value a poll or a finished wait saw the timeline reach (no driver call): a lower bound of {@link #completedValue}. */
    public long seenCompleted() {
        return seen.get();
    }

    /** Raises {@link #seen} to {@code value} (polls on several threads may finish out of order); returns {@code value}. */
    private long raiseSeen(long value) {
        long s;
        while (value > (s = seen.get()) && !seen.compareAndSet(s, value)) {
            Thread.onSpinWait();
        }
        return value;
    }

    /** Blocks until the timeline reaches {@code value}; a wait that blocks is counted in {@link #waits()} under {@code cause}. */
    public void waitFor(long value, Waits.Cause cause) {
        if (value <= 0) {
            return;
        }
        if (loss.isLost()) {
            loss.drainOnce(gpu.device());
            return;
        }
        if (reached(value)) {
            return;
        }
        long start = System.nanoTime();
        try (MemoryStack stack = stackPush()) {
            // Written by address: frame pacing waits here whenever the CPU runs ahead, and wrappers would be garbage each time.
            long waitInfo = stack.ncalloc(VkSemaphoreWaitInfo.ALIGNOF, 1, VkSemaphoreWaitInfo.SIZEOF);
            long semaphores = stack.nmalloc(8, 8);
            long values = stack.nmalloc(8, 8);
            MemoryUtil.memPutLong(semaphores, timeline);
            MemoryUtil.memPutLong(values, value);
            VkSemaphoreWaitInfo.nsType(waitInfo, VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
            VkSemaphoreWaitInfo.nsemaphoreCount(waitInfo, 1);
            MemoryUtil.memPutAddress(waitInfo + VkSemaphoreWaitInfo.PSEMAPHORES, semaphores);
            MemoryUtil.memPutAddress(waitInfo + VkSemaphoreWaitInfo.PVALUES, values);
            // A bounded wait: a lost or hung device must surface as an error, never as a hang. Generous,
            // since a CPU driver can take seconds for work a GPU does in milliseconds.
            int result = nvkWaitSemaphores(gpu.device(), waitInfo, WAIT_TIMEOUT_NS);
            if (result == VK_TIMEOUT) {
                throw new VulkanException(VK_TIMEOUT, "vkWaitSemaphores(timeline " + value + ", " + WAIT_TIMEOUT_NS / 1_000_000_000L + " s)");
            }
            if (result == VK_ERROR_DEVICE_LOST) {
                loss.mark("vkWaitSemaphores (waiting for submission " + value + ")");
            }
            if (result != VK_SUCCESS) {   // the message is built only when there is one to give
                check(result, "vkWaitSemaphores (waiting for submission " + value + ")");
            }
            if (result == VK_SUCCESS) {
                raiseSeen(value);
            }
        } finally {
            waits.record(Waits.Kind.TIMELINE, cause, System.nanoTime() - start);
        }
    }

    /** vkDeviceWaitIdle before closing; a lost device is noted, not thrown: it was reported where it happened. */
    void waitDeviceIdleForClose() {
        loss.waitIdleForClose(gpu.device());
    }

    /** Destroys the one-shot pool and the timeline (after {@link #waitDeviceIdleForClose}). */
    void destroy() {
        vkDestroyCommandPool(gpu.device(), oneShotPool, null);
        vkDestroySemaphore(gpu.device(), timeline, null);
    }

    /** True once any call reported VK_ERROR_DEVICE_LOST (real or injected); the context can then only be closed. */
    public boolean isDeviceLost() {
        return loss.isLost();
    }

    /** Where the loss was first seen (e.g. "submission 50 (vkQueueSubmit2)"), or null. */
    public String lostAt() {
        return loss.where();
    }

    public synchronized long lastSubmitted() { return lastSubmitted; }
    /** The highest timeline value handed out so far (submitted, promised to an open frame, or failed). */
    public synchronized long handedOut() { return handedOut; }
    public long timeline() { return timeline; }
    /** Every CPU wait on this context's GPU work, by kind and cause. */
    public Waits waits() { return waits; }
    /** The lock held around every submit and present on the main queue. */
    public Lock queueLock() { return queueLock; }
}

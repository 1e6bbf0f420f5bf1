package dev.tally.internal.vk;

import java.util.ArrayDeque;

/**
 * Destroys Vulkan objects once the GPU is done with them: each entry waits for the highest timeline value
 * handed out when it was closed (an open frame may already have recorded a use of it). Never driven by the
 * garbage collector. After a device loss nothing runs any more, so entries are destroyed at once.
 */
final class DeferredDestroyer {
    private record Entry(long timelineValue, Runnable destroy) {
    }

    private final Submissions submissions;
    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    /** Destroyed only at close, once the device is idle ({@link #deferUntilIdle}). */
    private final ArrayDeque<Runnable> untilIdle = new ArrayDeque<>();

    DeferredDestroyer(Submissions submissions) {
        this.submissions = submissions;
    }

    /** Runs {@code destroy} once every submission handed out so far has completed (at once when it has). */
    void defer(Runnable destroy) {
        long value = submissions.handedOut();
        boolean lost = submissions.isDeviceLost();
        long completed = submissions.completedValue();   // after a loss it drains the device once: nothing runs any more
        if (lost || value <= completed) {
            destroy.run();
            return;
        }
        synchronized (this) {
            pending.addLast(new Entry(value, destroy));
        }
    }

    /**
     * Runs {@code destroy} at close, after the device is idle, never earlier, whatever the timeline says: for a semaphore
     * that submitted batches wait on. A driver may still touch a batch's wait semaphores after the batch's timeline
     * signal is visible: Mesa 22.3's common queue code (lavapipe's) releases them after it, in the semaphore's memory.
     */
    synchronized void deferUntilIdle(Runnable destroy) {
        untilIdle.addLast(destroy);
    }

    /** Destroys what the GPU is done with; cheap, call once per frame. */
    void retire() {
        long first;
        synchronized (this) {
            if (pending.isEmpty()) {
                return;   // the usual frame: nothing to destroy, nothing to ask the driver
            }
            first = pending.peekFirst().timelineValue();
        }
        long completed = submissions.reached(first) ? submissions.seenCompleted() : first - 1;
        synchronized (this) {
            // Values are queued in order (they only grow), so stop at the first that has not been reached.
            while (!pending.isEmpty() && pending.peekFirst().timelineValue() <= completed) {
                pending.pollFirst().destroy().run();
            }
        }
    }

    /** At close, after the device is idle: everything. */
    synchronized void retireAll() {
        while (!pending.isEmpty()) {
            pending.pollFirst().destroy().run();
        }
        while (!untilIdle.isEmpty()) {
            untilIdle.pollFirst().run();
        }
    }

    /** Entries not yet destroyed: those waiting for a timeline value and those waiting for close. */
    synchronized int pending() {
        return pending.size() + untilIdle.size();
    }
}

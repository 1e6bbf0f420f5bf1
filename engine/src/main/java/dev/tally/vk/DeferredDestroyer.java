package dev.tally.vk;

import java.util.ArrayDeque;

/**
 * Destroys Vulkan objects once the GPU is done with them: each entry waits for the timeline value of
 * the last submission that could have used it. Never driven by the garbage collector.
 */
final class DeferredDestroyer {
    private record Entry(long timelineValue, Runnable destroy) {
    }

    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    private long destroyed;

    /** Queue {@code destroy} to run when the timeline reaches {@code value}. */
    synchronized void defer(long value, Runnable destroy) {
        pending.addLast(new Entry(value, destroy));
    }

    /** Run every entry whose value has been reached; values are queued in order, so stop at the first that has not. */
    synchronized void retire(long completed) {
        while (!pending.isEmpty() && pending.peekFirst().timelineValue() <= completed) {
            pending.pollFirst().destroy().run();
            destroyed++;
        }
    }

    synchronized void retireAll() {
        while (!pending.isEmpty()) {
            pending.pollFirst().destroy().run();
            destroyed++;
        }
    }

    synchronized int pending() {
        return pending.size();
    }

    synchronized long destroyed() {
        return destroyed;
    }
}

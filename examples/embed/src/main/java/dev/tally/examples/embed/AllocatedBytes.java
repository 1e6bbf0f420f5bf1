package dev.tally.examples.embed;

import java.lang.management.ManagementFactory;

/**
 * What the frame thread allocates, frame by frame (HotSpot's count), to show the frame loop makes no garbage: the bytes
 * per frame over the measured frames, how many frames allocated anything, and the most one did. A per-frame allocation
 * shows in every frame; bytes the JVM makes once (see {@link #jitMillis}) show in a few.
 */
final class AllocatedBytes {
    /** The thread counter, or null where the JVM cannot count a thread's allocation. */
    private final com.sun.management.ThreadMXBean threads;
    private long frames;
    private long bytes;
    private long framesThatAllocated;
    private long mostInOneFrame;
    private long frameStart;

    AllocatedBytes() {
        threads = ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()
                && t.isThreadAllocatedMemoryEnabled() ? t : null;
    }

    /**
     * Milliseconds the JIT has spent compiling so far, or -1 where the JVM does not say. Bytes a steady frame loop allocates
     * while it compiles are HotSpot's, made once: queueing a class's first method for C2 interns the class's string
     * constants on the thread that ran it, here the frame thread.
     */
    static long jitMillis() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    boolean countable() {
        return threads != null;
    }

    void frameBegins() {
        if (threads != null) {
            frameStart = threads.getCurrentThreadAllocatedBytes();
        }
    }

    void frameEnded() {
        if (threads == null) {
            return;
        }
        long made = threads.getCurrentThreadAllocatedBytes() - frameStart;
        frames++;
        bytes += made;
        if (made > 0) {
            framesThatAllocated++;
            mostInOneFrame = Math.max(mostInOneFrame, made);
        }
    }

    /** Bytes a frame over the frames counted; -1 where the JVM cannot count them or none were. */
    double perFrame() {
        return threads == null || frames == 0 ? -1 : (double) bytes / frames;
    }

    /** Frames that allocated anything; -1 where the JVM cannot count them. */
    long framesThatAllocated() {
        return threads == null ? -1 : framesThatAllocated;
    }

    /** The most one frame allocated; -1 where the JVM cannot count it. */
    long mostInOneFrame() {
        return threads == null ? -1 : mostInOneFrame;
    }
}

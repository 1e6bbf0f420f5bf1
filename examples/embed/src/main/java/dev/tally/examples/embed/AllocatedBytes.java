package dev.tally.examples.embed;

import java.lang.management.ManagementFactory;

/** What the calling thread allocated so far (HotSpot's count), to show the frame loop makes no garbage. */
final class AllocatedBytes {
    private AllocatedBytes() {
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

    /** @return bytes allocated by this thread so far, or -1 where the JVM cannot count them */
    static long ofThisThread() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()
                && t.isThreadAllocatedMemoryEnabled()) {
            return t.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}

package dev.tally.examples.embed;

import java.lang.management.ManagementFactory;

/** What the calling thread allocated so far (HotSpot's count), to show the frame loop makes no garbage. */
final class AllocatedBytes {
    private AllocatedBytes() {
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

package dev.tally;

import java.lang.reflect.Method;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Bytes the current thread allocated so far, for the garbage tests: HotSpot's ThreadMXBean, reached reflectively
 * (the engine module does not read java.management). Fails loudly where the JVM cannot count them.
 */
public final class ThreadAllocation {
    private ThreadAllocation() {
    }

    public static long allocatedBytes() {
        try {
            Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Method bytes = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes", long.class);
            return (long) bytes.invoke(threads, Thread.currentThread().getId());
        } catch (ReflectiveOperationException | LinkageError e) {
            return fail("this JVM cannot count a thread's allocated bytes (com.sun.management.ThreadMXBean): " + e);
        }
    }
}

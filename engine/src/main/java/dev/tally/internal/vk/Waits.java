package dev.tally.internal.vk;

/**
 * Every time the CPU blocks on the GPU, counted in one place, by what it waited on ({@link Kind}) and
 * why ({@link Cause}). A wait that finds the work already done is not a wait and is not counted.
 * Frame pacing (a frame-in-flight slot still busy) is kept apart from readback, so that "the readback
 * never waits" is a figure that a synchronous readback visibly moves.
 */
public final class Waits {
    /** What the CPU blocked on. */
    public enum Kind {
        /** vkWaitSemaphores on a timeline value (or a fence). */
        TIMELINE,
        /** vkDeviceWaitIdle or vkQueueWaitIdle. */
        IDLE,
        /** vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT. */
        QUERY,
        /** vkAcquireNextImageKHR that blocked for an image. */
        ACQUIRE
    }

    /** Why the CPU blocked. */
    public enum Cause {
        /** Waiting for a frame-in-flight slot to be free (the CPU ran ahead of the GPU). */
        PACING,
        /** Waiting for data to read back. */
        READBACK,
        /** Tools, one-shot submissions, resizes and shutdown: never on a steady-state frame path. */
        OTHER
    }

    /** Counts and microseconds of one cause, or of everything. */
    public record Tally(long count, double micros) {
    }

    private final long[][] counts = new long[Kind.values().length][Cause.values().length];
    private final long[][] nanos = new long[Kind.values().length][Cause.values().length];

    /** Records a wait that blocked for {@code blockedNanos}. */
    public synchronized void record(Kind kind, Cause cause, long blockedNanos) {
        counts[kind.ordinal()][cause.ordinal()]++;
        nanos[kind.ordinal()][cause.ordinal()] += Math.max(0, blockedNanos);
    }

    /** Waits of one cause, all kinds together. */
    public synchronized Tally of(Cause cause) {
        long c = 0, n = 0;
        for (int k = 0; k < counts.length; k++) {   // by index: Kind.values() would copy the array
            c += counts[k][cause.ordinal()];
            n += nanos[k][cause.ordinal()];
        }
        return new Tally(c, n / 1000.0);
    }

    /** The number of waits of one cause, all kinds together: {@code of(cause).count()} without the record. */
    public synchronized long count(Cause cause) {
        long c = 0;
        for (int k = 0; k < counts.length; k++) {
            c += counts[k][cause.ordinal()];
        }
        return c;
    }

    /** Microseconds blocked in waits of one cause, all kinds together: {@code of(cause).micros()} without the record. */
    public synchronized double micros(Cause cause) {
        long n = 0;
        for (int k = 0; k < counts.length; k++) {
            n += nanos[k][cause.ordinal()];
        }
        return n / 1000.0;
    }

    /** Waits of one kind, all causes together. */
    public synchronized Tally of(Kind kind) {
        long c = 0, n = 0;
        for (int cause = 0; cause < counts[kind.ordinal()].length; cause++) {
            c += counts[kind.ordinal()][cause];
            n += nanos[kind.ordinal()][cause];
        }
        return new Tally(c, n / 1000.0);
    }

    /** Every wait so far. */
    public synchronized Tally total() {
        long c = 0, n = 0;
        for (Kind k : Kind.values()) {
            for (Cause cause : Cause.values()) {
                c += counts[k.ordinal()][cause.ordinal()];
                n += nanos[k.ordinal()][cause.ordinal()];
            }
        }
        return new Tally(c, n / 1000.0);
    }
}

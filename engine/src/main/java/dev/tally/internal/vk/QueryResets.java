package dev.tally.internal.vk;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How a context's timestamp queries were reset: from the host (vkResetQueryPool, hostQueryReset enabled) or by a
 * command in a command buffer (vkCmdResetQueryPool), counted in queries. Read by tests and diagnostics.
 */
public final class QueryResets {
    private final AtomicLong host = new AtomicLong();
    private final AtomicLong commands = new AtomicLong();

    /** Counted from the frame thread and from one-shot reductions on the caller's thread. */
    void counted(boolean fromHost, int queries) {
        (fromHost ? host : commands).addAndGet(queries);
    }

    /** {@return queries reset from the host so far} */
    public long host() {
        return host.get();
    }

    /** {@return queries reset by commands recorded so far} */
    public long commands() {
        return commands.get();
    }
}

package dev.tally.internal.vk;

/**
 * How a context's timestamp queries were reset: from the host (vkResetQueryPool, hostQueryReset enabled) or by a
 * command in a command buffer (vkCmdResetQueryPool), counted in queries. Read by tests and diagnostics.
 */
public final class QueryResets {
    private long host;
    private long commands;

    void counted(boolean fromHost, int queries) {
        if (fromHost) {
            host += queries;
        } else {
            commands += queries;
        }
    }

    /** {@return queries reset from the host so far} */
    public long host() {
        return host;
    }

    /** {@return queries reset by commands recorded so far} */
    public long commands() {
        return commands;
    }
}

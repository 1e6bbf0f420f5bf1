package dev.tally.graph;

import java.util.List;

/**
 * Where the graph placed work on the async compute lane ({@code graph.async}; {@code Tally.asyncLane()}), for a
 * HUD or a report.
 */
public interface AsyncLane {
    /** {@return the configured mode} */
    AsyncMode mode();

    /** {@return the queues in use: 2 when the device gave a second compute queue, else 1} */
    int queues();

    /** {@return a copy: the passes the last recorded frame placed on the async lane, in order} */
    List<String> lastPasses();

    /** {@return in {@link AsyncMode#AUTO}, what was chosen ("async" or "main"), or null while still trying or in another mode} */
    String choice();

    /** {@return in {@link AsyncMode#AUTO} after a choice, the GPU microseconds per frame the choice saves; else NaN} */
    double savedMicros();
}

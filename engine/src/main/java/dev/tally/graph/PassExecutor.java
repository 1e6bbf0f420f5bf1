package dev.tally.graph;

/** The step that records a pass's commands, run at execution time with physical resources resolved. */
@FunctionalInterface
public interface PassExecutor {
    void record(PassContext ctx);
}

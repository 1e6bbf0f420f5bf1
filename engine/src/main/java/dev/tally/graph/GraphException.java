package dev.tally.graph;

/** A frame graph declared wrongly; the message names the pass and the resource. */
public final class GraphException extends RuntimeException {
    public GraphException(String message) {
        super(message);
    }
}

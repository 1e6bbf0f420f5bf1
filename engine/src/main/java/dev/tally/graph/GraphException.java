package dev.tally.graph;

/** A frame graph declared wrongly; the message names the pass and the resource. */
public final class GraphException extends RuntimeException {
    /**
     * Makes the error.
     *
     * @param message one line naming the pass, the resource and what is wrong
     */
    public GraphException(String message) {
        super(message);
    }
}

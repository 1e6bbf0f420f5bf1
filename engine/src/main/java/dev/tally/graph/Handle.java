package dev.tally.graph;

/**
 * A typed reference to one version of a resource in one frame's graph. Writing a resource yields a
 * new version; a pass that uses an older version is rejected as stale, and a handle from another
 * frame's graph, or from an earlier frame of the same graph, is rejected by the graph it is handed to.
 * Handles are issued by {@link FrameGraph} and {@link PassBuilder}; they compare equal when they name the
 * same version of the same resource of the same graph.
 */
public interface Handle {
    /** {@return the resource's index in its graph} */
    int resource();

    /** {@return the version: 0 as declared, one more after each write} */
    int version();
}

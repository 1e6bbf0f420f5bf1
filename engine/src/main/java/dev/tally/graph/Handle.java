package dev.tally.graph;

/**
 * A typed reference to one version of a resource in one frame's graph. Writing a resource yields a
 * new version; a pass that uses an older version is rejected as stale, and a handle from another
 * frame's graph is rejected by the graph it belongs to, not by its index.
 */
public sealed interface Handle permits BufferHandle, ImageHandle {
    /** The resource's index in its graph. */
    int resource();

    /** The version: 0 as declared, one more after each write. */
    int version();
}

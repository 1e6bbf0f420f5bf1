package dev.tally.graph;

/**
 * A typed reference to one version of a graph resource. Writing a resource yields a new version;
 * a pass that uses an older version is rejected as stale.
 */
public sealed interface Handle permits BufferHandle, ImageHandle {
    int resource();

    int version();
}

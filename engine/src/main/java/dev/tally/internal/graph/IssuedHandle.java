package dev.tally.internal.graph;

import dev.tally.graph.Handle;

import java.util.Objects;

/**
 * A typed reference to one version of a resource in one frame's graph. Writing a resource yields a
 * new version; a pass that uses an older version is rejected as stale, and a handle from another
 * frame's graph is rejected by the graph it belongs to (identity, not the luck of an index).
 * A runtime reuses its graphs, and their handles, from frame to frame: a handle carries the generation
 * (the frame's declaration) it was issued in, and a graph refuses one of an earlier generation. A handle
 * object is issued again only to the resource of the same name, slot and version.
 */
abstract sealed class IssuedHandle implements Handle permits IssuedBufferHandle, IssuedImageHandle {
    /** The graph that issued the handle. */
    final Object graph;
    private final int resource;
    private final int version;
    /** The declaration of its graph the handle was last issued in (stamped again when the same handle is reissued). */
    long generation;

    IssuedHandle(Object graph, int resource, int version) {
        this.graph = graph;
        this.resource = resource;
        this.version = version;
    }

    /** The resource's index in its graph. */
    @Override
    public int resource() {
        return resource;
    }

    /** The version: 0 as declared, one more after each write. */
    @Override
    public int version() {
        return version;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((IssuedHandle) o).graph == graph && ((IssuedHandle) o).resource == resource
                && ((IssuedHandle) o).version == version;
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(graph), resource, version);
    }

    @Override
    public String toString() {
        return (this instanceof IssuedBufferHandle ? "BufferHandle" : "ImageHandle") + "[resource=" + resource + ", version=" + version + "]";
    }
}

package dev.tally.graph;

import java.util.Objects;

/** One version of an image in one frame's graph. */
public final class ImageHandle implements Handle {
    /** The graph that issued the handle: identity, not an index, tells frames apart. */
    final Object graph;
    private final int resource;
    private final int version;

    ImageHandle(Object graph, int resource, int version) {
        this.graph = graph;
        this.resource = resource;
        this.version = version;
    }

    @Override
    public int resource() {
        return resource;
    }

    @Override
    public int version() {
        return version;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ImageHandle h && h.graph == graph && h.resource == resource && h.version == version;
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(graph), resource, version);
    }

    @Override
    public String toString() {
        return "ImageHandle[resource=" + resource + ", version=" + version + "]";
    }
}

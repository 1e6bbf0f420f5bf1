package dev.tally.internal.graph;

/** One version of a buffer in one frame's graph. */
public final class BufferHandle extends Handle {
    BufferHandle(Object graph, int resource, int version) {
        super(graph, resource, version);
    }
}

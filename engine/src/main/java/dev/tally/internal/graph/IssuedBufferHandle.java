package dev.tally.internal.graph;

import dev.tally.graph.BufferHandle;

/** One version of a buffer in one frame's graph. */
final class IssuedBufferHandle extends IssuedHandle implements BufferHandle {
    IssuedBufferHandle(Object graph, int resource, int version) {
        super(graph, resource, version);
    }
}

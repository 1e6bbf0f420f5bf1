package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

/** One version of an image in one frame's graph. */
final class IssuedImageHandle extends IssuedHandle implements ImageHandle {
    IssuedImageHandle(Object graph, int resource, int version) {
        super(graph, resource, version);
    }
}

package dev.tally.internal.graph;

/** One version of an image in one frame's graph. */
public final class ImageHandle extends Handle {
    ImageHandle(Object graph, int resource, int version) {
        super(graph, resource, version);
    }
}

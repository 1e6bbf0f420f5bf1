package dev.tally.graph;

/** One version of an image in one frame's graph. */
public interface ImageHandle extends Handle {
}

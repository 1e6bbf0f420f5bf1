package dev.tally.graph;

/** One version of a buffer in one frame's graph. */
public interface BufferHandle extends Handle {
}

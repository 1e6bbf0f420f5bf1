package dev.tally.graph;

/** One version of a buffer in the frame graph. */
public record BufferHandle(int resource, int version) implements Handle {
}

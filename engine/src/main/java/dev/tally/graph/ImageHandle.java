package dev.tally.graph;

/** One version of an image in the frame graph. */
public record ImageHandle(int resource, int version) implements Handle {
}

package dev.tally.graph;

/** Where passes that asked for the async compute queue run: never, always, or wherever measurement says is faster. */
public enum AsyncMode { OFF, ON, AUTO }

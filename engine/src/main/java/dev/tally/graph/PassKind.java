package dev.tally.graph;

/** What a pass records: dispatches, draws inside dynamic rendering, or copies. */
public enum PassKind { COMPUTE, GRAPHICS, TRANSFER }

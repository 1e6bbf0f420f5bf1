package dev.tally.graph;

/** What a pass records: dispatches, draws inside dynamic rendering, or copies. */
public enum PassKind {
    /** Dispatches; may run on the async compute queue. */
    COMPUTE,
    /** Draws, recorded inside the dynamic rendering the graph begins for the pass's attachments. */
    GRAPHICS,
    /** Copies, blits and fills. */
    TRANSFER
}

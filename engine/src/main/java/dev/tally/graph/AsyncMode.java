package dev.tally.graph;

/** Where passes that asked for the async compute queue run: never, always, or wherever measurement says is faster. */
public enum AsyncMode {
    /** Every pass runs on the main queue. */
    OFF,
    /** Passes that asked for it run on the async compute queue where the device has one. */
    ON,
    /** Each graph topology is timed both ways and keeps the faster placement. */
    AUTO
}

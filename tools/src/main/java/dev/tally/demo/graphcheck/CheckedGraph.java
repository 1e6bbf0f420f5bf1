package dev.tally.demo.graphcheck;

import dev.tally.Frame;
import dev.tally.Tally;

/**
 * A graph that graphcheck runs under every variant: each run starts from fresh state (imports, histories,
 * nodes), so two runs of the same graph must produce the same bytes whatever the pass order, the queue
 * lanes or the transient poisoning.
 */
public interface CheckedGraph {
    /** A name that lets the graph be run again alone (e.g. {@code random 17}: {@code --seed 17 --graphs 1}). */
    String name();

    /** Fresh state for one run on {@code tally}. */
    Run start(Tally tally);

    /** One run: declares the same topology every frame; what it copies into {@code copies} is what is compared. */
    interface Run extends AutoCloseable {
        void declare(Frame frame, int frameIndex, HostCopies copies);

        @Override
        void close();
    }
}

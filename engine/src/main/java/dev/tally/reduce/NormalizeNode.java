package dev.tally.reduce;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;

/**
 * Normalization as a graph pass: divides {@code count} floats by a total that a reduction
 * left on the GPU. The graph orders it after the reduction and inserts the barrier. The output holds
 * {@code count + 1} floats: the quotients, then 1.0 when the total was usable (finite, not zero) or
 * 0.0 when it was not (then every quotient is 0.0); normalize.comp states the rule.
 */
public interface NormalizeNode extends AutoCloseable {
    /** Hot reload, between frames: rebuilds from the current source; on a compile error the running pipeline stays. */
    void reload();

    /**
     * Adds pass {@code name}, ordered after the pass that wrote {@code total}.
     *
     * @param g     this frame's graph
     * @param name  the pass's name
     * @param input the floats to divide
     * @param total one float, e.g. a {@link ReduceNode}'s result
     * @param count how many floats of {@code input} to divide
     * @return the handle of the normalized copy ({@code count + 1} floats)
     */
    BufferHandle add(FrameGraph g, String name, BufferHandle input, BufferHandle total, long count);

    /** Releases the pipeline, deferred until the GPU is done with it. */
    void close();
}

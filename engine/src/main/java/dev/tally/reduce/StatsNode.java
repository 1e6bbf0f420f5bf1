package dev.tally.reduce;

import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;

/**
 * Count, sum, min, max, mean and variance of floats in one read of them, as a frame-graph node: given a buffer
 * handle and a count, it adds its dispatches and returns the handle of one {@link ReduceStats#RECORD_BYTES}-byte
 * record that stays on the GPU, for a later pass to bind or a readback ring to capture ({@link ReduceStats#read}
 * reads it). The record, little-endian: count as a uint32 at byte {@link ReduceStats#COUNT_OFFSET}, then f32 sum,
 * min, max, mean and variance at {@link ReduceStats#SUM_OFFSET}, {@link ReduceStats#MIN_OFFSET},
 * {@link ReduceStats#MAX_OFFSET}, {@link ReduceStats#MEAN_OFFSET} and {@link ReduceStats#VARIANCE_OFFSET}. Large n:
 * passes {@code NAME.partials} and {@code NAME.fold}; small n: one pass {@code NAME}, as {@link ReduceNode}'s. One
 * node serves one reduction per frame. Made by {@code Tally.statsNode}.
 */
public interface StatsNode extends AutoCloseable {
    /**
     * Adds the statistics of {@code count} floats of {@code input}; returns the record's handle. The count is checked
     * against the node's {@code maxCount} and the buffer's declared size here.
     *
     * @param g     this frame's graph
     * @param input the floats
     * @param count how many, from the start; at most the node's {@code maxCount} and the buffer's size
     * @return the handle of the {@link ReduceStats#RECORD_BYTES}-byte record
     */
    BufferHandle add(FrameGraph g, BufferHandle input, long count);

    /** Releases the scratch buffers, deferred until the GPU is done with them. */
    @Override
    void close();
}

package dev.tally.internal.graph;

import java.util.List;

/**
 * One submission of a frame: a run of consecutive passes (positions {@code [firstPos, endPos)} of the
 * plan's order) on one lane. It waits, before any of its work, for the listed earlier batches of the
 * other lane, and signals when done if a later batch waits for it. Batches are submitted in index order;
 * the last one is on the main lane, waits for the async lane's last batch, records the frame's epilogue
 * and signals the frame's timeline value.
 *
 * @param waits batch indices this batch waits for (always on the other lane, always lower)
 */
public record QueueBatch(int index, int lane, int firstPos, int endPos, List<Integer> waits, boolean signals) {
    public int passCount() {
        return endPos - firstPos;
    }
}

package dev.tally.internal.graph;

import dev.tally.graph.AsyncMode;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each frame's passes run: the lanes frames are planned for ({@link AsyncMode}, and whether the
 * device has a second queue), and per frame which passes that asked for the async queue go there (by
 * the {@link AsyncPlacement} trial in AUTO). Remembers the last frame's placement for the HUD and tests.
 */
final class AsyncScheduler {
    private final GraphBackend backend;
    private final AsyncPlacement placement = new AsyncPlacement();
    private AsyncMode mode = AsyncMode.OFF;
    private QueueLanes queues = QueueLanes.ONE;
    private int[] lastLanes = new int[0];
    private boolean lastAsync;

    AsyncScheduler(GraphBackend backend) {
        this.backend = backend;
    }

    void configure(AsyncMode mode, boolean splitOnOneQueue) {
        this.mode = mode;
        this.queues = backend.asyncLanes(splitOnOneQueue);
    }

    AsyncMode mode() {
        return mode;
    }

    /** The lanes frames are planned for (one, or two with or without ownership transfers). */
    QueueLanes lanes() {
        return mode == AsyncMode.OFF ? QueueLanes.ONE : queues;
    }

    /** Each pass's lane, by position in {@code plan}'s order, for a frame of topology {@code key} on {@code lanes}. */
    int[] place(GraphDeclaration g, GraphPlan plan, String key, QueueLanes lanes) {
        // One placement per frame, asked only when it can matter (two lanes and something to place).
        boolean async = lanes.lanes() == 2 && LaneAssignment.anyCandidate(g, plan) && placement.placeAsync(key, mode);
        // The last frame's array when the plan has as many passes: the barrier cache keeps copies, never this one.
        int[] laneOf = LaneAssignment.assign(g, plan, lanes, async, lastLanes);
        lastLanes = laneOf;
        lastAsync = async;
        return laneOf;
    }

    /** The last placed frame put its candidates on the async lane. */
    boolean lastAsync() {
        return lastAsync;
    }

    AsyncPlacement placement() {
        return placement;
    }

    /** Names of the last placed frame's passes that asked for the async queue ({@code g} and {@code plan}: that frame), made when asked. */
    List<String> lastCandidates(GraphDeclaration g, GraphPlan plan) {
        return g == null ? List.of() : LaneAssignment.candidates(g, plan);
    }

    int[] lastLanes() {
        return lastLanes.clone();
    }

    /** Names of {@code g}'s passes (compiled as {@code plan}, the last placed frame) on the async lane, in plan order. */
    List<String> lastAsyncPasses(GraphDeclaration g, GraphPlan plan) {
        List<String> out = new ArrayList<>();
        for (int pos = 0; pos < lastLanes.length; pos++) {
            if (lastLanes[pos] == QueueLanes.ASYNC) {
                out.add(g.passes.get(plan.order().get(pos)).name);
            }
        }
        return out;
    }
}

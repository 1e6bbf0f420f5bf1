package dev.tally.internal.graph;

import java.util.function.Predicate;

/** Which lane each pass of a plan runs on: async-compute passes chosen by the placement go to lane 1 when there is one. */
public final class LaneAssignment {
    private LaneAssignment() {
    }

    /**
     * @param placeAsync decides, by pass name, whether a pass that asked for the async compute queue goes there
     * @return by position in the plan's order, the lane
     */
    public static int[] assign(GraphDeclaration g, GraphPlan plan, QueueLanes queues, Predicate<String> placeAsync) {
        int[] lanes = new int[plan.order().size()];
        if (queues.lanes() == 1) {
            return lanes;
        }
        for (int pos = 0; pos < lanes.length; pos++) {
            Pass p = g.passes.get(plan.order().get(pos));
            lanes[pos] = p.asyncCompute && placeAsync.test(p.name) ? QueueLanes.ASYNC : QueueLanes.MAIN;
        }
        return lanes;
    }

    /**
     * As {@link #assign(GraphDeclaration, GraphPlan, QueueLanes, Predicate)} with one decision for every candidate
     * ({@code async}), into {@code into} when it has the plan's length (the last frame's array, reused), else a new one.
     */
    static int[] assign(GraphDeclaration g, GraphPlan plan, QueueLanes queues, boolean async, int[] into) {
        int n = plan.order().size();
        int[] lanes = into != null && into.length == n ? into : new int[n];
        for (int pos = 0; pos < n; pos++) {
            lanes[pos] = queues.lanes() == 2 && async && g.passes.get(plan.order().get(pos)).asyncCompute ? QueueLanes.ASYNC : QueueLanes.MAIN;
        }
        return lanes;
    }

    /** Whether a pass of the plan asked for the async compute queue (counted without a list). */
    static boolean anyCandidate(GraphDeclaration g, GraphPlan plan) {
        for (int pos = 0; pos < plan.order().size(); pos++) {
            if (g.passes.get(plan.order().get(pos)).asyncCompute) {
                return true;
            }
        }
        return false;
    }

    /** Names of the passes in the plan that asked for the async compute queue, in plan order: the candidates. */
    public static java.util.List<String> candidates(GraphDeclaration g, GraphPlan plan) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int pos = 0; pos < plan.order().size(); pos++) {
            int i = plan.order().get(pos);
            if (g.passes.get(i).asyncCompute) {
                out.add(g.passes.get(i).name);
            }
        }
        return out;
    }
}

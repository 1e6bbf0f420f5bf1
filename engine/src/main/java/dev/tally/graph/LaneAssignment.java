package dev.tally.graph;

import java.util.function.Predicate;

/** Which lane each pass of a plan runs on: async-compute passes chosen by the placement go to lane 1 when there is one. */
public final class LaneAssignment {
    private LaneAssignment() {
    }

    /**
     * @param placeAsync decides, by pass name, whether a pass that asked for the async compute queue goes there
     * @return by position in the plan's order, the lane
     */
    public static int[] assign(FrameGraph g, GraphPlan plan, QueueLanes queues, Predicate<String> placeAsync) {
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

    /** Names of the passes in the plan that asked for the async compute queue, in plan order: the candidates. */
    public static java.util.List<String> candidates(FrameGraph g, GraphPlan plan) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i : plan.order()) {
            if (g.passes.get(i).asyncCompute) {
                out.add(g.passes.get(i).name);
            }
        }
        return out;
    }
}

package dev.tally.internal.graph;

import dev.tally.graph.Access;

import dev.tally.internal.vk.ResourceState;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Computes the synchronization2 barriers of a compiled frame from the declared accesses: read after
 * write, write after read (execution only), write after write, image layout changes, memory handed
 * from one aliased transient to the next, and the final accesses of imported resources. No barrier
 * between two reads in the same layout. One merged list per pass.
 */
public final class BarrierPlanner {
    /** All stages and every write: the conservative source scope where work crosses between lanes. */
    private static final long ALL = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    private static final long ANY_WRITE = VK_ACCESS_2_MEMORY_WRITE_BIT;
    private static final long ANY_ACCESS = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    /** No access on that lane this frame. */
    static final int NONE = -2;
    /** The access is the resource's entry state: earlier frames, joined onto the main lane. */
    static final int ENTRY = -1;

    /**
     * Barriers before each pass in plan order, the epilogue (recorded in the frame's last batch, on the
     * main lane), and where each resource was left. With two lanes also: the releases recorded at the start
     * of the first batch and after each pass, the join recorded at the start of the last batch (before the
     * epilogue, in a barrier of its own), and the batches with their waits and signals.
     */
    public record Barriers(List<List<BarrierSpec>> beforePass, List<BarrierSpec> epilogue, ResourceState[] finalStates,
                           List<BarrierSpec> prologue, List<List<BarrierSpec>> afterPass, List<BarrierSpec> join, List<QueueBatch> batches) {
    }

    private BarrierPlanner() {
    }

    /** One lane: every pass on the main queue, one batch. */
    public static Barriers plan(GraphDeclaration g, GraphPlan plan, IntFunction<ResourceState> slotEntry) {
        return plan(g, plan, slotEntry, new int[plan.order().size()], QueueLanes.ONE);
    }

    /**
     * @param slotEntry where each memory slot was left by the last frame that used it (aliasing
     *                  carries across frames, since frames in flight share the slots)
     * @param laneOf    by position in the plan's order: the lane the pass runs on
     */
    public static Barriers plan(GraphDeclaration g, GraphPlan plan, IntFunction<ResourceState> slotEntry, int[] laneOf, QueueLanes queues) {
        int n = plan.order().size();
        if (laneOf.length != n) {
            throw new IllegalArgumentException("laneOf has " + laneOf.length + " entries for " + n + " passes");
        }
        for (int pos = 0; pos < n; pos++) {
            if (laneOf[pos] != QueueLanes.MAIN && (queues.lanes() == 1 || laneOf[pos] != QueueLanes.ASYNC)) {
                throw new IllegalArgumentException("pass '" + g.passes.get(plan.order().get(pos)).name + "' on lane " + laneOf[pos]
                        + " with " + queues.lanes() + " lane(s)");
            }
        }
        boolean twoLanes = queues.lanes() == 2;
        boolean mainLaneOnly = true;   // every pass on the main lane: a buffer's first barrier may move earlier (latestBarrier)
        for (int l : laneOf) {
            mainLaneOnly &= l == QueueLanes.MAIN;
        }
        int count = g.resources.size();
        ResourceState[] state = new ResourceState[count];
        ResourceState[] slotState = new ResourceState[plan.slots().size()];
        int[][] slotLastPos = new int[slotState.length][2];
        int[] slotLastLane = new int[slotState.length];
        for (int s = 0; s < slotState.length; s++) {
            slotState[s] = slotEntry.apply(s);
            slotLastPos[s][0] = slotState[s].touched() ? ENTRY : NONE;
            slotLastPos[s][1] = NONE;
        }
        int[][] lastPos = new int[count][2];
        int[] lastLane = new int[count];
        int[] lastWritePos = new int[count];
        int[] lastWriteLane = new int[count];
        for (GraphResource r : g.resources) {
            state[r.id] = r.transientResource() ? null : r.entry;
            boolean touched = !r.transientResource() && r.entry.touched();
            lastPos[r.id][0] = touched ? ENTRY : NONE;
            lastPos[r.id][1] = NONE;
            lastWritePos[r.id] = touched && r.entry.writeStages() != 0 ? ENTRY : NONE;
        }
        int[][] waitFor = new int[n][2];
        List<BarrierSpec> prologue = new ArrayList<>();
        List<List<BarrierSpec>> after = new ArrayList<>();
        List<List<BarrierSpec>> before = new ArrayList<>();
        for (int pos = 0; pos < n; pos++) {
            waitFor[pos][0] = NONE;
            waitFor[pos][1] = NONE;
            after.add(new ArrayList<>());
        }
        for (int pos = 0; pos < n; pos++) {
            Pass p = g.passes.get(plan.order().get(pos));
            int q = laneOf[pos], o = 1 - q;
            List<BarrierSpec> list = new ArrayList<>();
            for (Pass.Use use : AccessTransitions.merged(g, p)) {
                GraphResource r = g.resources.get(use.resource());
                Access a = use.access();
                int slot = r.transientResource() ? plan.slotOf()[r.id] : -1;
                if (state[r.id] == null) {
                    // First use of a transient: its memory may still be in use by the slot's previous
                    // occupant (this frame or an earlier one). Order against that, contents discarded.
                    ResourceState prev = slotState[slot];
                    if (twoLanes && slotLastPos[slot][o] != NONE) {
                        // The previous occupant ran (also) on the other lane: wait for it there; a barrier
                        // from every stage covers this lane's own earlier occupants and sets the layout.
                        waitFor[pos][o] = Math.max(waitFor[pos][o], slotLastPos[slot][o]);
                        list.add(new BarrierSpec(r.id, r.image, true, ALL, ANY_WRITE, a.stages(), a.access(), VK_IMAGE_LAYOUT_UNDEFINED,
                                r.image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED));
                    } else if (prev.touched()) {
                        list.add(new BarrierSpec(r.id, r.image, true, prev.writeStages() | prev.readStages(), prev.writeAccess(),
                                a.stages(), a.access(), VK_IMAGE_LAYOUT_UNDEFINED, a.layout()));
                    } else if (r.image) {
                        list.add(new BarrierSpec(r.id, true, false, 0, 0, a.stages(), a.access(),
                                VK_IMAGE_LAYOUT_UNDEFINED, a.layout()));
                    }
                    state[r.id] = AccessTransitions.afterFirstUse(a, r.image);
                    if (a.write() || r.image) {
                        lastWritePos[r.id] = pos;
                        lastWriteLane[r.id] = q;
                    }
                } else if (twoLanes && lastLane[r.id] != q && lastPos[r.id][o] != NONE) {
                    crossLanes(r, a, pos, q, state, lastPos, queues, waitFor, prologue, after, list);
                    ResourceState s = state[r.id];
                    int layout = r.image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : s.layout();
                    state[r.id] = a.write() ? new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, layout)
                            : new ResourceState(ALL, ANY_WRITE, a.stages(), a.readAccess(), a.stages(), layout);
                    if (a.write() || layout != s.layout()) {
                        lastWritePos[r.id] = pos;
                        lastWriteLane[r.id] = q;
                    }
                } else {
                    BarrierSpec b = AccessTransitions.transition(r, state[r.id], a);
                    boolean layoutChange = b != null && b.layoutChange();
                    if (twoLanes && (a.write() || layoutChange) && lastPos[r.id][o] != NONE) {
                        // Write after the other lane's reads (or writes): wait for them.
                        waitFor[pos][o] = Math.max(waitFor[pos][o], lastPos[r.id][o]);
                    } else if (twoLanes && lastWriteLane[r.id] == o && lastWritePos[r.id] != NONE) {
                        waitFor[pos][o] = Math.max(waitFor[pos][o], lastWritePos[r.id]);
                    }
                    if (b != null) {
                        int at = mainLaneOnly && !r.image && lastPos[r.id][q] < 0 ? latestBarrier(before, b) : -1;
                        (at >= 0 ? before.get(at) : list).add(b);
                    }
                    state[r.id] = AccessTransitions.next(state[r.id], a, b != null, r.image);
                    if (a.write() || layoutChange) {
                        lastWritePos[r.id] = pos;
                        lastWriteLane[r.id] = q;
                    }
                }
                lastLane[r.id] = q;
                lastPos[r.id][q] = pos;
                if (slot >= 0) {
                    slotLastPos[slot][q] = pos;
                    slotLastLane[slot] = q;
                    if (plan.lastUse()[r.id] == pos) {
                        slotState[slot] = state[r.id];
                    }
                }
            }
            before.add(list);
        }
        List<BarrierSpec> epilogue = new ArrayList<>();
        List<BarrierSpec> joinList = new ArrayList<>();
        boolean asyncUsed = false;
        for (int l : laneOf) {
            asyncUsed |= l == QueueLanes.ASYNC;
        }
        if (asyncUsed) {
            join(g, state, lastPos, lastLane, slotState, slotLastLane, queues, after, joinList);
        }
        for (GraphResource r : g.resources) {
            if (r.finalAccess != null && state[r.id] != null) {
                Access fin = r.finalAccess;
                BarrierSpec b = AccessTransitions.transition(r, state[r.id], fin);
                if (b == null && fin == Access.HOST_READ && state[r.id].writeStages() != 0) {
                    b = new BarrierSpec(r.id, r.image, false, state[r.id].writeStages(), state[r.id].writeAccess(), fin.stages(),
                            fin.access(), state[r.id].layout(), state[r.id].layout());
                }
                if (b != null) {
                    epilogue.add(b);
                    state[r.id] = AccessTransitions.next(state[r.id], fin, true, r.image);
                }
            }
        }
        // Transients are reported through their slots; what matters next frame is where the slot was left.
        ResourceState[] finals = state.clone();
        for (GraphResource r : g.resources) {
            if (r.transientResource() && plan.slotOf()[r.id] >= 0) {
                finals[r.id] = slotState[plan.slotOf()[r.id]];
            }
        }
        return new Barriers(before, epilogue, finals, prologue, after, joinList, QueueBatches.of(laneOf, waitFor));
    }

    /**
     * Where a buffer's first barrier of the frame (from its entry state: earlier frames' uses) goes: with the latest
     * earlier pass that has barriers of its own, when one of those already orders the same source stages before the same
     * destination stages, so that the move adds no wait. A barrier waits for every earlier command of its source stages,
     * not only for the resource's, so one placed between two passes that do not depend on each other (the HUD's plot
     * after the tonemap, the plot's ring last read by the previous frame) would serialize them; moved earlier, nothing in
     * this frame touches the buffer in between, and the passes in between wait for nothing they did not wait for. -1 when
     * no earlier pass has barriers or theirs do not cover {@code b}'s stages (a ring last read by a graphics pass, a buffer
     * left by a frame on two lanes: source ALL_COMMANDS). Images keep theirs: a layout transition from an acquired
     * swapchain image would make the earlier passes wait for the acquire.
     */
    private static int latestBarrier(List<List<BarrierSpec>> before, BarrierSpec b) {
        for (int p = before.size() - 1; p >= 0; p--) {
            List<BarrierSpec> list = before.get(p);
            if (!list.isEmpty()) {
                for (int i = 0; i < list.size(); i++) {   // indexed: no iterator
                    BarrierSpec x = list.get(i);
                    if ((x.srcStages() & b.srcStages()) == b.srcStages() && (x.dstStages() & b.dstStages()) == b.dstStages()) {
                        return p;
                    }
                }
                return -1;
            }
        }
        return -1;
    }

    /**
     * A resource moves to lane {@code q} from the other lane: wait for the other lane's last access
     * (its last write, for a read where the lanes may share), and either transfer ownership (release
     * after that access, acquire here) or order this lane with a barrier from every stage, which also
     * sets the layout. The semaphore between the batches makes the other lane's writes available.
     */
    private static void crossLanes(GraphResource r, Access a, int pos, int q, ResourceState[] state, int[][] lastPos, QueueLanes queues,
                                   int[][] waitFor, List<BarrierSpec> prologue, List<List<BarrierSpec>> after, List<BarrierSpec> list) {
        int o = 1 - q;
        ResourceState s = state[r.id];
        int layout = r.image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : s.layout();
        int from = lastPos[r.id][o];
        waitFor[pos][o] = Math.max(waitFor[pos][o], from);
        if (queues.transferOwnership()) {
            BarrierSpec release = new BarrierSpec(r.id, r.image, false, ALL, ANY_WRITE, VK_PIPELINE_STAGE_2_NONE, 0, s.layout(), layout, o, q);
            (from == ENTRY ? prologue : after.get(from)).add(release);
            list.add(new BarrierSpec(r.id, r.image, false, ALL, 0, a.stages(), a.access(), s.layout(), layout, o, q));
        } else {
            list.add(new BarrierSpec(r.id, r.image, false, ALL, ANY_WRITE, a.stages(), a.access(), s.layout(), layout));
        }
    }

    /**
     * The frame ends on the main lane, after the async lane's last batch: resources the async lane
     * touched last come back (ownership transferred where needed), and one global barrier orders every
     * later use on the main queue after the wait, for this frame's epilogue and the next frames.
     */
    private static void join(GraphDeclaration g, ResourceState[] state, int[][] lastPos, int[] lastLane, ResourceState[] slotState,
                             int[] slotLastLane, QueueLanes queues, List<List<BarrierSpec>> after, List<BarrierSpec> join) {
        join.add(new BarrierSpec(-1, false, true, ALL, ANY_WRITE, ALL, ANY_ACCESS, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED));
        for (GraphResource r : g.resources) {
            if (state[r.id] == null || lastLane[r.id] != QueueLanes.ASYNC) {
                continue;
            }
            int layout = state[r.id].layout();
            if (queues.transferOwnership() && !r.transientResource()) {
                after.get(lastPos[r.id][QueueLanes.ASYNC]).add(new BarrierSpec(r.id, r.image, false, ALL, ANY_WRITE, VK_PIPELINE_STAGE_2_NONE,
                        0, layout, layout, QueueLanes.ASYNC, QueueLanes.MAIN));
                join.add(new BarrierSpec(r.id, r.image, false, ALL, 0, ALL, ANY_ACCESS, layout, layout, QueueLanes.ASYNC, QueueLanes.MAIN));
            }
            state[r.id] = joined(layout);
        }
        for (int s = 0; s < slotState.length; s++) {
            if (slotLastLane[s] == QueueLanes.ASYNC) {
                slotState[s] = joined(slotState[s].layout());
            }
        }
    }

    /** After the join barrier: everything is available; later uses order against it with a barrier from every stage. */
    private static ResourceState joined(int layout) {
        return new ResourceState(ALL, 0, 0, 0, 0, layout);
    }
}

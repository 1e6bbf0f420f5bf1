package dev.tally.graph;

import dev.tally.vk.ResourceState;

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
    private static final int NONE = -2;
    /** The access is the resource's entry state: earlier frames, joined onto the main lane. */
    private static final int ENTRY = -1;

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
    public static Barriers plan(FrameGraph g, GraphPlan plan, IntFunction<ResourceState> slotEntry) {
        return plan(g, plan, slotEntry, new int[plan.order().size()], QueueLanes.ONE);
    }

    /**
     * @param slotEntry where each memory slot was left by the last frame that used it (aliasing
     *                  carries across frames, since frames in flight share the slots)
     * @param laneOf    by position in the plan's order: the lane the pass runs on
     */
    public static Barriers plan(FrameGraph g, GraphPlan plan, IntFunction<ResourceState> slotEntry, int[] laneOf, QueueLanes queues) {
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
            for (Pass.Use use : merged(g, p)) {
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
                    state[r.id] = afterFirstUse(a, r.image);
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
                    BarrierSpec b = transition(r, state[r.id], a);
                    boolean layoutChange = b != null && b.layoutChange();
                    if (twoLanes && (a.write() || layoutChange) && lastPos[r.id][o] != NONE) {
                        // Write after the other lane's reads (or writes): wait for them.
                        waitFor[pos][o] = Math.max(waitFor[pos][o], lastPos[r.id][o]);
                    } else if (twoLanes && lastWriteLane[r.id] == o && lastWritePos[r.id] != NONE) {
                        waitFor[pos][o] = Math.max(waitFor[pos][o], lastWritePos[r.id]);
                    }
                    if (b != null) {
                        list.add(b);
                    }
                    state[r.id] = next(state[r.id], a, b != null, r.image);
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
                BarrierSpec b = transition(r, state[r.id], fin);
                if (b == null && fin == Access.HOST_READ && state[r.id].writeStages() != 0) {
                    b = new BarrierSpec(r.id, r.image, false, state[r.id].writeStages(), state[r.id].writeAccess(), fin.stages(),
                            fin.access(), state[r.id].layout(), state[r.id].layout());
                }
                if (b != null) {
                    epilogue.add(b);
                    state[r.id] = next(state[r.id], fin, true, r.image);
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
        return new Barriers(before, epilogue, finals, prologue, after, joinList, batches(laneOf, waitFor));
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
    private static void join(FrameGraph g, ResourceState[] state, int[][] lastPos, int[] lastLane, ResourceState[] slotState,
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

    /**
     * Runs of consecutive passes on one lane become batches. The first batch is on the main lane (empty
     * when the order starts on the async lane) and the async lane's first batch waits for it, so nothing
     * of this frame on the async queue overtakes earlier frames' work. The last batch is on the main lane
     * and waits for the async lane's last batch.
     */
    static List<QueueBatch> batches(int[] laneOf, int[][] waitFor) {
        int n = laneOf.length;
        List<int[]> runs = new ArrayList<>();   // lane, first, end
        int[] batchOf = new int[n];
        runs.add(new int[]{QueueLanes.MAIN, 0, 0});
        for (int pos = 0; pos < n; pos++) {
            int[] last = runs.get(runs.size() - 1);
            if (last[0] != laneOf[pos]) {
                last = new int[]{laneOf[pos], pos, pos};
                runs.add(last);
            }
            last[2] = pos + 1;
            batchOf[pos] = runs.size() - 1;
        }
        if (runs.get(runs.size() - 1)[0] != QueueLanes.MAIN) {
            runs.add(new int[]{QueueLanes.MAIN, n, n});
        }
        int b = runs.size();
        int[][] waits = new int[b][2];
        for (int[] w : waits) {
            w[0] = -1;
            w[1] = -1;
        }
        boolean[] signals = new boolean[b];
        int firstAsync = -1, lastAsync = -1;
        for (int i = 0; i < b; i++) {
            if (runs.get(i)[0] == QueueLanes.ASYNC) {
                firstAsync = firstAsync < 0 ? i : firstAsync;
                lastAsync = i;
            }
        }
        for (int pos = 0; pos < n; pos++) {
            for (int lane = 0; lane < 2; lane++) {
                if (waitFor[pos][lane] == NONE || lane == laneOf[pos]) {
                    continue;
                }
                int target = waitFor[pos][lane] == ENTRY ? 0 : batchOf[waitFor[pos][lane]];
                int me = batchOf[pos];
                waits[me][lane] = Math.max(waits[me][lane], target);
            }
        }
        if (firstAsync >= 0) {
            waits[firstAsync][QueueLanes.MAIN] = Math.max(waits[firstAsync][QueueLanes.MAIN], 0);
            waits[b - 1][QueueLanes.ASYNC] = Math.max(waits[b - 1][QueueLanes.ASYNC], lastAsync);
        }
        List<QueueBatch> out = new ArrayList<>();
        for (int i = 0; i < b; i++) {
            for (int lane = 0; lane < 2; lane++) {
                if (waits[i][lane] >= 0) {
                    signals[waits[i][lane]] = true;
                }
            }
        }
        for (int i = 0; i < b; i++) {
            List<Integer> w = new ArrayList<>();
            for (int lane = 0; lane < 2; lane++) {
                if (waits[i][lane] >= 0) {
                    w.add(waits[i][lane]);
                }
            }
            int[] run = runs.get(i);
            out.add(new QueueBatch(i, run[0], run[1], run[2], List.copyOf(w), signals[i]));
        }
        return List.copyOf(out);
    }

    /** Uses of one resource in one pass combine: union of stages and accesses, a write if any writes. */
    static List<Pass.Use> merged(FrameGraph g, Pass p) {
        List<Pass.Use> out = new ArrayList<>();
        for (Pass.Use u : p.uses) {
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).resource() == u.resource()) {
                    at = i;
                }
            }
            if (at < 0) {
                out.add(u);
                continue;
            }
            Pass.Use o = out.get(at);
            Access a = o.access(), b = u.access();
            GraphResource r = g.resources.get(u.resource());
            if (r.image && a.layout() != b.layout() && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED && b.layout() != VK_IMAGE_LAYOUT_UNDEFINED) {
                throw new GraphException("pass '" + p.name + "' uses image '" + r.name + "' in two layouts (" + a + ", " + b + ")");
            }
            Access union = new Access(a.name() + "+" + b.name(), a.stages() | b.stages(), a.access() | b.access(),
                    a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : b.layout(), a.write() || b.write());
            out.set(at, new Pass.Use(o.resource(), o.version(), union, Math.max(o.producedVersion(), u.producedVersion())));
        }
        return out;
    }

    private static ResourceState afterFirstUse(Access a, boolean image) {
        if (a.write()) {
            return new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED);
        }
        return new ResourceState(0, 0, 0, 0, a.stages(), image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED);
    }

    /** The barrier needed before {@code a}, given the resource's state, or null when none is. */
    static BarrierSpec transition(GraphResource r, ResourceState s, Access a) {
        boolean layoutChange = r.image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED && s.layout() != a.layout();
        if (layoutChange) {
            // A layout transition is a write: it must follow every earlier access, reads included.
            return new BarrierSpec(r.id, true, false, s.writeStages() | s.readStages(), s.writeAccess(), a.stages() == 0 ? 0 : a.stages(),
                    a.access(), s.layout(), a.layout());
        }
        int layout = s.layout();
        if (a.write()) {
            if (s.readStages() != 0) {
                // Write after read: an execution dependency on the readers (and the last writer) suffices.
                return new BarrierSpec(r.id, r.image, false, s.readStages() | s.writeStages(), s.writeAccess(), a.stages(), a.access(),
                        layout, layout);
            }
            if (s.writeStages() != 0) {
                return new BarrierSpec(r.id, r.image, false, s.writeStages(), s.writeAccess(), a.stages(), a.access(), layout, layout);
            }
            return null;
        }
        if (s.writeStages() == 0) {
            return null;
        }
        boolean visible = (s.visibleStages() & a.stages()) == a.stages() && (s.visibleAccess() & a.readAccess()) == a.readAccess();
        if (visible) {
            return null;
        }
        return new BarrierSpec(r.id, r.image, false, s.writeStages(), s.writeAccess(), a.stages(), a.access(), layout, layout);
    }

    static ResourceState next(ResourceState s, Access a, boolean barrier, boolean image) {
        int layout = image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : s.layout();
        if (a.write()) {
            return new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, layout);
        }
        if (barrier && layout != s.layout()) {
            // After a layout transition the transition is the last write, visible to this reader.
            return new ResourceState(a.stages(), 0, a.stages(), a.readAccess(), a.stages(), layout);
        }
        long visStages = barrier ? s.visibleStages() | a.stages() : s.visibleStages();
        long visAccess = barrier ? s.visibleAccess() | a.readAccess() : s.visibleAccess();
        return new ResourceState(s.writeStages(), s.writeAccess(), visStages, visAccess, s.readStages() | a.stages(), layout);
    }
}

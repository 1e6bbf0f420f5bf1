package dev.tally.internal.graph;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Records one frame through the backend: the compiled topology (from the cache), the lanes, then batch by
 * batch the first-use fills, the barriers, the passes with their labels, timestamps and rendering, and
 * the frame's epilogue; finally where every resource was left.
 */
final class FrameRecorder {
    private final GraphBackend backend;
    private final TopologyCache topologies;
    private final FrameTimings timings;
    private final AsyncScheduler async;
    private final FirstUseFills fills;
    private final boolean skipBarriers;
    private PassOrder passOrder = PassOrder.DECLARED;
    private boolean poison;
    /** The last recorded frame's topology key: a frame with the same topology reuses it instead of building a string. */
    private String lastTopologyKey;
    private final TopologyKey.KeyMatcher keyMatcher = new TopologyKey.KeyMatcher();
    /** The GPU object behind each resource id of the frame being recorded (kept from frame to frame). */
    private Object[] objects = new Object[0];
    /** By batch of the frame being recorded: the lane semaphore value it signals (kept from frame to frame). */
    private long[] signalOf = new long[2];
    private PassRecording context;
    private GraphDeclaration lastGraph;
    private GraphPlan lastPlan;
    private BarrierPlanner.Barriers lastBarriers;
    private long barriersEmitted;
    private long laneSemaphore;
    private long laneValue;

    /** Told when a one-batch frame's last commands are recorded (readback rings copy their completion timestamps). */
    private final FrameListeners listeners;

    FrameRecorder(GraphBackend backend, TopologyCache topologies, FrameTimings timings, AsyncScheduler async, FirstUseFills fills,
                  boolean skipBarriers, FrameListeners listeners) {
        this.listeners = listeners;
        this.backend = backend;
        this.topologies = topologies;
        this.timings = timings;
        this.async = async;
        this.fills = fills;
        this.skipBarriers = skipBarriers;
    }

    void passOrder(PassOrder order) {
        this.passOrder = order;
    }

    void poison(boolean on) {
        this.poison = on;
    }

    /** The frame's barrier points emitted so far (the next one's number). */
    private int barrierPoint;

    /** The batches of the frame recorded last, and their objects: rewritten each frame (valid until the next record). */
    private final List<GraphRuntime.RecordedBatch> recordedBatches = new ArrayList<>(2);
    private final List<GraphRuntime.RecordedBatch> batchPool = new ArrayList<>(2);

    /** Records {@code g}; with {@code listBatches}, returns what each batch is (else null: one command buffer, nothing to hand on). */
    List<GraphRuntime.RecordedBatch> record(GraphDeclaration g, GraphRuntime.BatchCommands commands, QueueLanes lanes, boolean listBatches) {
        g.requireComplete();
        barrierPoint = 0;
        StateTracker.resolveEntries(g);
        // The previous frame's key object when nothing changed: told by comparing with the last recorded graph (pointers,
        // mostly), else by the key's walk.
        String key = lastTopologyKey != null && TopologyKey.sameTopology(g, lastGraph) ? lastTopologyKey
                : TopologyKey.of(g, lastTopologyKey, keyMatcher);
        TopologyCache.Compiled compiled = topologies.acquire(key, g, passOrder, poison, g.frame());
        // The cached entry's own key string from now on: a topology come back to is described by a new, equal string, and
        // keeping that one would compare it character by character with the entry's in every later frame's lookup.
        key = compiled.key;
        lastTopologyKey = key;
        GraphPlan plan = compiled.plan;
        Object[] objects = objectsOf(g, compiled.transients);
        int[] laneOf = async.place(g, plan, key, lanes);
        BarrierPlanner.Barriers barriers = topologies.barriers(compiled, g, laneOf, lanes);
        List<QueueBatch> batches = barriers.batches();
        timings.frameBegun(g.frame(), plan.order().size(), batches.size());
        if (batches.size() > 1 && laneSemaphore == 0) {
            laneSemaphore = backend.createLaneSemaphore();
        }
        if (signalOf.length < batches.size()) {
            signalOf = new long[batches.size()];
        }
        List<GraphRuntime.RecordedBatch> out = listBatches ? recordedBatches : null;
        if (out != null) {
            out.clear();
        }
        for (int b = 0; b < batches.size(); b++) {
            QueueBatch batch = batches.get(b);
            VkCommandBuffer cmd = commands.begin(batch.lane());
            recordBatch(cmd, g, plan, barriers, batch, batches.size(), objects);
            if (batch.signals()) {
                signalOf[b] = ++laneValue;
            }
            if (out == null) {
                continue;
            }
            if (batchPool.size() == b) {
                batchPool.add(new GraphRuntime.RecordedBatch());
            }
            GraphRuntime.RecordedBatch recorded = batchPool.get(b).set(batch, cmd, batch.signals() ? signalOf[b] : 0, b == batches.size() - 1);
            for (int w = 0; w < batch.waits().size(); w++) {
                recorded.addWait(signalOf[batch.waits().get(w)]);
            }
            out.add(recorded);
        }
        StateTracker.frameRecorded(g, plan, barriers.finalStates(), compiled.transients);
        fills.frameRecorded();
        timings.passesRecorded(g, plan);
        g.declaredHistories.forEach(HistoryBuffer::advance);
        lastGraph = g;
        lastPlan = plan;
        lastBarriers = barriers;
        timings.frameRecorded(g.timelineValue(), key, async.lastAsync());
        return out;
    }

    /** By resource id: the transient's object or the imported one; entries past this frame's resources are never read. */
    private Object[] objectsOf(GraphDeclaration g, Transients transients) {
        if (objects.length < g.resources.size()) {
            objects = new Object[Math.max(g.resources.size(), 2 * objects.length)];
        }
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            Object o = r.transientResource() ? transients.objects[r.id] : r.physical;
            if (objects[r.id] != o) {
                objects[r.id] = o;   // written only when it changes: a reference store costs the collector's write barrier
            }
        }
        return objects;
    }

    private void recordBatch(VkCommandBuffer cmd, GraphDeclaration g, GraphPlan plan, BarrierPlanner.Barriers barriers, QueueBatch batch,
                             int batchCount, Object[] objects) {
        if (batch.index() == 0) {
            fills.record(backend, cmd);
            emit(cmd, barriers.prologue(), objects);
        }
        timings.batchBegun(cmd, batch, batchCount, plan.order().size());
        if (context == null) {
            context = new PassRecording(backend.context());
        }
        context.bind(cmd, objects, g);
        for (int pos = batch.firstPos(); pos < batch.endPos(); pos++) {
            Pass p = g.passes.get(plan.order().get(pos));
            backend.beginLabel(cmd, p.name);
            List<BarrierSpec> before = barriers.beforePass().get(pos);
            if (poison) {
                before = TransientPoison.beforePass(backend, cmd, g, plan, pos, objects, before);
            }
            emit(cmd, before, objects);
            timings.passBegun(cmd, pos, batch);
            context.enter(p);
            if (p.kind == PassKind.GRAPHICS) {
                // Every attachment has the same extent (checked when the pass was added).
                ImageDesc target = g.resources.get(p.attachments.get(0).resource()).imageDesc;
                backend.beginRendering(cmd, p, objects, target.width(), target.height());
                context.extent(target.width(), target.height());
            }
            p.record(context);
            context.enter(null);
            if (p.kind == PassKind.GRAPHICS) {
                backend.endRendering(cmd);
            }
            timings.passEnded(cmd, pos, batch, p.name);
            emit(cmd, barriers.afterPass().get(pos), objects);
            backend.endLabel(cmd);
        }
        if (batch.index() == batchCount - 1) {
            emit(cmd, barriers.join(), objects);
            emit(cmd, barriers.epilogue(), objects);
        }
        if (batchCount == 1) {
            listeners.commandsEnding(cmd, g.frame());
        }
        timings.batchEnded(cmd, batch, batchCount, plan.order().size());
    }

    /** Every barrier point reaches the backend, empty or not: a recording backend sees where each list belongs. */
    private void emit(VkCommandBuffer cmd, List<BarrierSpec> specs, Object[] objects) {
        if (skipBarriers) {
            return;
        }
        barriersEmitted += specs.size();
        backend.barriers(cmd, barrierPoint++, specs, objects);
    }

    /** The last frame recorded (null before the first) and its plan. */
    GraphDeclaration lastGraph() { return lastGraph; }
    GraphPlan lastPlan() { return lastPlan; }
    /** The barriers the last frame was recorded with (null before the first). */
    BarrierPlanner.Barriers lastBarriers() { return lastBarriers; }
    long barriersEmitted() { return barriersEmitted; }
    /** The timeline semaphore between the lanes' batches (0 until the first two-lane frame). */
    long laneSemaphore() { return laneSemaphore; }

    void close() {
        if (laneSemaphore != 0) {
            backend.destroyLaneSemaphore(laneSemaphore);
            laneSemaphore = 0;
        }
    }
}

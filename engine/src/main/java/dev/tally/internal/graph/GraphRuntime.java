package dev.tally.internal.graph;

import dev.tally.graph.PassStats;

import dev.tally.graph.AsyncMode;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The graph's entry point for one device: begins each frame's declaration and records it into command
 * buffers the caller provides. The work is done by its parts: {@link FrameRecorder} (one frame),
 * {@link TopologyCache} (compiled topologies: plan, barriers, transient memory), {@link FrameTimings},
 * {@link AsyncScheduler}, {@link StateTracker} (state kept on each resource) and a {@link GraphBackend}.
 */
public final class GraphRuntime implements AutoCloseable {
    /** Name under which {@link #stats()} keeps each timed frame's GPU span: first pass start to last pass end. */
    public static final String FRAME_SPAN = dev.tally.graph.PassStats.FRAME_SPAN;

    /** Told when a frame begins, before it is declared (readback rings deliver what is due). */
    public interface FrameListener {
        /** Frame {@code frame} begins; the GPU has reached timeline value {@code completed}. */
        void frameBegun(long frame, long completed);

        /** Frame {@code frame} was given up before it was recorded: nothing of it will run. */
        default void frameAbandoned(long frame) {
        }

        /** Tally itself just submitted frame {@code frame} (callers that submit on their own are not heard here). */
        default void frameSubmitted(long frame) {
        }

        /**
         * Frame {@code frame}, recorded in one batch, has its last commands recorded into {@code cmd} (after its last
         * pass, before the command buffer ends): where copies for the host of what the frame's passes wrote go, out of
         * every pass's time. Not called for a frame split into batches on two lanes.
         */
        default void frameCommandsEnding(VkCommandBuffer cmd, long frame) {
        }
    }

    /** Where a batch's commands go: a command buffer, begun, for the next batch on {@code lane}. */
    public interface BatchCommands {
        VkCommandBuffer begin(int lane);
    }

    /**
     * One recorded batch: its lane, command buffer (not yet ended), the values of {@link #laneSemaphore()}
     * it waits for and signals (0: none). The last batch is the frame's: the caller adds the frame's signal.
     */
    public static final class RecordedBatch {
        private QueueBatch batch;
        private VkCommandBuffer cmd;
        private long[] waitValues = new long[2];
        private int waitCount;
        private long signalValue;
        private boolean last;

        /** Rewritten by the recorder each frame (one object per batch position: a frame's batches allocate nothing). */
        RecordedBatch set(QueueBatch batch, VkCommandBuffer cmd, long signalValue, boolean last) {
            this.batch = batch;
            this.cmd = cmd;
            this.signalValue = signalValue;
            this.last = last;
            this.waitCount = 0;
            return this;
        }

        void addWait(long value) {
            if (waitCount == waitValues.length) {
                waitValues = java.util.Arrays.copyOf(waitValues, 2 * waitCount);
            }
            waitValues[waitCount++] = value;
        }

        public QueueBatch batch() { return batch; }
        public VkCommandBuffer cmd() { return cmd; }
        public int waitCount() { return waitCount; }
        public long waitValue(int i) { return waitValues[i]; }
        public long signalValue() { return signalValue; }
        public boolean last() { return last; }
    }

    private final GraphBackend backend;
    private final TopologyCache topologies;
    private final AsyncScheduler async;
    private final FrameTimings timings;
    private final FirstUseFills fills = new FirstUseFills();
    private final FrameRecorder recorder;
    private final FrameListeners listeners = new FrameListeners();
    private final List<HistoryBuffer> histories = new ArrayList<>();
    /** The frame begun last (null before the first): the one place the runtime and its rings read the frame from. */
    /** The frame begun last: its number and timeline value (-1 and 0 before the first). */
    private long currentNumber = -1;
    private long currentValue;
    /** The graphs frames are declared in, reused in turn: the last recorded, the one begun last, and a free one. */
    private final GraphDeclaration[] graphs = new GraphDeclaration[3];
    private GraphDeclaration begun;

    public GraphRuntime(VulkanContext ctx) {
        this(ctx, false);
    }

    /**
     * @param skipBarriers debug only: record frames without the barriers the graph planned, to show with
     *                     synchronization validation that they are what keeps a frame correct
     */
    public GraphRuntime(VulkanContext ctx, boolean skipBarriers) {
        this(new VulkanBackend(ctx, FrameTimings.slotCount(ctx.options().framesInFlight()) * 2 * FrameTimings.MAX_TIMED_PASSES), skipBarriers);
    }

    /**
     * A runtime with no GPU behind it, for measuring Tally's own CPU work (benchmarks): frames are declared,
     * compiled, given barriers and recorded as on a device (each pass's execute step runs; {@link #record}
     * takes a null command buffer), and nothing reaches a driver. Histories and GPU imports need a device:
     * declare with the described imports ({@link GraphDeclaration#importBuffer(String, long, dev.tally.internal.vk.ResourceState, Access)}).
     */
    public static GraphRuntime withoutGpu(int framesInFlight) {
        return new GraphRuntime(new NoOpBackend(framesInFlight), false);
    }

    GraphRuntime(GraphBackend backend, boolean skipBarriers) {
        this.backend = backend;
        this.topologies = new TopologyCache(backend);
        this.async = new AsyncScheduler(backend);
        this.timings = new FrameTimings(backend, async.placement());
        this.recorder = new FrameRecorder(backend, topologies, timings, async, fills, skipBarriers, listeners);
    }

    /**
     * Starts declaring frame {@code frameNumber}, whose submission signals {@code timelineValue}: collects
     * finished frames' timestamps and tells the listeners (never waits). Called by the one object that owns
     * the frame's lifecycle ({@code dev.tally.Tally#beginFrame}).
     */
    public GraphDeclaration begin(long frameNumber, long timelineValue) {
        if (begun != null && (frameNumber <= currentNumber || timelineValue <= currentValue)) {   // both only grow
            throw new IllegalStateException("internal: frame " + frameNumber + " (timeline value " + timelineValue + ") begun after frame "
                    + currentNumber + " (" + currentValue + ")");
        }
        currentNumber = frameNumber;
        currentValue = timelineValue;
        // The new frame's graph first: listeners (readback rings) read the frame begun from it.
        GraphDeclaration g = freeGraph();
        g.reset(frameNumber, timelineValue, backend.framesInFlight());
        begun = g;
        // One poll for both: the timings read and the rings deliver what finished by the same value.
        long completed = backend.completedValue();
        timings.collect(completed);
        listeners.begun(frameNumber, completed);
        return g;
    }

    /**
     * A graph to declare the next frame in: neither the last recorded one (the next frame shares its uses, and
     * the HUD and tests read it) nor the one begun last (still refused if it is recorded now, by its ticket).
     */
    private GraphDeclaration freeGraph() {
        GraphDeclaration last = recorder.lastGraph();
        for (int i = 0; i < graphs.length; i++) {
            if (graphs[i] == null) {
                graphs[i] = new GraphDeclaration(this, 16, 16);
            }
            if (graphs[i] != last && graphs[i] != begun) {
                return graphs[i];
            }
        }
        throw new IllegalStateException("internal: no free frame graph among " + graphs.length);
    }

    /** The number of the frame begun last, -1 before the first (read without making its ticket). */
    public long currentNumber() {
        return begun == null ? -1 : begun.frame();
    }

    /** Whether {@code g} is the graph of the frame begun last (as comparing their tickets, without making one). */
    public boolean isCurrent(dev.tally.graph.FrameGraph g) {
        return begun != null && g == begun;
    }

    /** The frame begun last, or null before the first: rings take their slot from it. */
    public FrameTicket currentTicket() {
        return begun == null ? null : begun.ticket();
    }

    /** Frame {@code g} will not be recorded; listeners drop what they prepared for it. */
    public void abandon(GraphDeclaration g) {
        listeners.abandoned(g.frame());
    }

    /** Frame {@code g} was just submitted by Tally. */
    public void submitted(GraphDeclaration g) {
        listeners.submitted(g.frame());
    }

    /** {@code listener} hears of every frame's beginning until removed. */
    public void addListener(FrameListener listener) {
        listeners.add(listener);
    }

    public void removeListener(FrameListener listener) {
        listeners.remove(listener);
    }

    /**
     * A buffer that persists across frames, owned by this runtime. With an initial word, both copies are
     * filled with it at the start of the next recorded frame (no GPU wait here).
     */
    public HistoryBuffer history(String name, BufferDesc desc, Integer initialWord) {
        HistoryBuffer h = new HistoryBuffer(backend.context(), name, desc, initialWord != null);
        histories.add(h);
        if (initialWord != null) {
            h.copies().forEach(b -> fills.add(b, initialWord));
        }
        return h;
    }

    /**
     * Fills a new buffer with {@code word} at the start of the next recorded frame, before any pass: the
     * first-use initialization of scratch and history, recorded instead of waited for. The buffer needs
     * TRANSFER_DST usage and must not have been used by the GPU yet.
     */
    public void fillOnFirstUse(TrackedBuffer buffer, int word) {
        fills.add(buffer, word);
    }

    /** The context the graphs record for. */
    public VulkanContext context() {
        return backend.context();
    }

    /** Compiles (or reuses the plan for this topology) and records every pass into {@code cmd}: one batch, on the main queue. */
    public void record(GraphDeclaration g, VkCommandBuffer cmd) {
        oneBuffer.cmd = cmd;
        try {
            recordFrame(g, oneBuffer, QueueLanes.ONE, false);
        } finally {
            oneBuffer.cmd = null;
        }
    }

    /** The one command buffer of {@link #record}: a holder kept by the runtime, not a lambda made per frame. */
    private static final class OneBuffer implements BatchCommands {
        VkCommandBuffer cmd;

        @Override
        public VkCommandBuffer begin(int lane) {
            return cmd;
        }
    }

    private final OneBuffer oneBuffer = new OneBuffer();

    /**
     * Compiles and records every pass into one batch per run of passes on a lane ({@link AsyncMode}):
     * async compute passes on the async lane when there is one (or when lanes are split on one queue).
     * With one lane this is one batch, recorded exactly as {@link #record}.
     */
    public List<RecordedBatch> recordBatches(GraphDeclaration g, BatchCommands commands) {
        return recordFrame(g, commands, async.lanes(), true);
    }

    private List<RecordedBatch> recordFrame(GraphDeclaration g, BatchCommands commands, QueueLanes lanes, boolean listBatches) {
        if (g != begun || g.frame() != currentNumber) {
            throw new IllegalStateException("frame " + g.frame() + "'s graph recorded after frame " + currentNumber
                    + " began; declare and record one frame at a time");
        }
        List<RecordedBatch> batches = recorder.record(g, commands, lanes, listBatches);
        g.markRecorded();
        return batches;
    }

    /** Every {@code n}th frame times each pass; the others only the frame's span (one queue batch; split frames always time each pass). */
    public void passTimingInterval(int n) { timings.interval(n); }
    public int passTimingInterval() { return timings.interval(); }

    /** Chooses async placement and the lanes; off by default. Plans are compiled anew. */
    public void configureAsync(AsyncMode mode, boolean splitOnOneQueue) {
        async.configure(mode, splitOnOneQueue);
        topologies.clear();
    }

    /** The lanes frames are planned for (one, or two with or without ownership transfers). */
    public QueueLanes queueLanes() { return async.lanes(); }
    public AsyncMode asyncMode() { return async.mode(); }

    /** Debug: the order the compiler puts passes in (default: declaration order). Plans are compiled anew. */
    public void debugPassOrder(PassOrder order) {
        recorder.passOrder(order);
        topologies.clear();
    }

    /** Debug: fill each transient's memory with NaN (integer formats: a poison colour) before its first use in a frame. */
    public void debugPoisonTransients(boolean on) {
        recorder.poison(on);   // transients are laid out anew (they need TRANSFER_DST usage to be filled)
    }

    /** The timeline semaphore between the lanes' batches (created with the first two-lane frame). */
    public long laneSemaphore() { return recorder.laneSemaphore(); }

    /** Reads the timestamps of finished frames into {@link #stats()} (never waits; also done when a frame begins). */
    public void collectTimings() { timings.collect(); }

    public PassStats stats() { return timings.stats(); }
    /** Async placement: the candidates, what was chosen and the measured spans. */
    public AsyncPlacement placement() { return async.placement(); }
    /** Names of the last frame's passes that asked for the async queue. */
    public List<String> lastAsyncCandidates() { return async.lastCandidates(recorder.lastGraph(), recorder.lastPlan()); }

    /** Names of the last recorded frame's passes placed on the async lane, in plan order. */
    public List<String> lastAsyncPasses() {
        return recorder.lastGraph() == null ? List.of() : async.lastAsyncPasses(recorder.lastGraph(), recorder.lastPlan());
    }

    /** The last frame recorded (null before the first), its plan and its barriers. */
    GraphDeclaration lastRecordedGraph() { return recorder.lastGraph(); }
    GraphPlan lastPlan() { return recorder.lastPlan(); }
    BarrierPlanner.Barriers lastBarriers() { return recorder.lastBarriers(); }
    GraphBackend backend() { return backend; }
    /** Lanes of the last recorded frame's passes, in plan order. */
    public int[] lastLanes() { return async.lastLanes(); }
    /** The frame begun last (-1 before the first). */
    public long frame() { return currentNumber; }
    /** Barriers recorded so far (0 with skipBarriers). */
    public long barriersEmitted() { return recorder.barriersEmitted(); }
    /** How many times a frame's barriers were planned (the rest reused those of an earlier frame with the same inputs). */
    public long barrierPlans() { return topologies.barrierPlans(); }
    /** How many times a frame needed a new compile (the rest reused a cached plan). */
    public long compiles() { return topologies.compiles(); }
    /** How many frames looked their topology up among the cached ones (a frame of the last frame's topology does not). */
    long topologyLookups() { return topologies.mapLookups(); }
    /** Objects the backend created for transients so far; flat in steady state. */
    public long transientObjectsCreated() { return backend.transientObjectsCreated(); }

    /** Bytes of transient memory aliasing saved in the last frame. */
    public long lastBytesSaved() {
        GraphPlan plan = recorder.lastPlan();
        return plan == null ? 0 : plan.requestedBytes(recorder.lastGraph()) - plan.allocatedBytes();
    }

    /** The last recorded frame as Graphviz DOT. */
    public String toDot() {
        return recorder.lastGraph() == null ? "digraph tally {}\n" : DotExport.toDot(recorder.lastGraph(), recorder.lastPlan());
    }

    @Override
    public void close() {
        fills.clear();
        recorder.close();
        histories.forEach(HistoryBuffer::close);
        topologies.close();
        backend.close();
    }
}

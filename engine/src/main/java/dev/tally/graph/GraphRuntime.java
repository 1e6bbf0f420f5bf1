package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.TimestampQueries;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Records frame graphs into command buffers the caller provides. Keeps what must outlive a frame:
 * compiled plans (reused while the topology is unchanged), transient memory, where every imported
 * resource was left, history buffers, and per-pass GPU timestamps read back without waiting.
 */
public final class GraphRuntime implements AutoCloseable {
    private static final int MAX_TIMED_PASSES = 64;

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
    }

    /** A frame's timestamps in flight: two per pass in {@code passes}, or (spanOnly) two for the frame's span. */
    private record PendingTimings(long timelineValue, int slot, List<String> passes, AsyncPlacement.Variant variant, boolean spanOnly) {
    }

    private record Fill(GpuBuffer buffer, int word) {
    }

    private final VulkanContext ctx;
    private final TransientPool pool;
    private final PlanCache plans = new PlanCache();
    private final BarrierCache barrierCache = new BarrierCache(16);
    private final TrackedStates states = new TrackedStates();
    private final List<HistoryBuffer> histories = new ArrayList<>();
    private final TimestampQueries queries;
    private final int querySlots;
    private final long[] slotBusyUntil;
    private final ArrayDeque<PendingTimings> pending = new ArrayDeque<>();
    private final PassStats stats = new PassStats();
    private final List<FrameListener> listeners = new ArrayList<>();
    /** The listeners as an array, replaced on every change: iterating it needs no copy, and a listener may remove itself. */
    private FrameListener[] listenerSnapshot = new FrameListener[0];
    private final List<Fill> pendingFills = new ArrayList<>();
    private final boolean skipBarriers;
    private long frame = -1;
    /** The frame begun last was given up: the next frame may take its number again. */
    private boolean lastAbandoned;
    private long barriersEmitted;
    private FrameGraph lastGraph;
    private GraphPlan lastPlan;
    private AsyncMode asyncMode = AsyncMode.OFF;
    private int passTimingInterval = 1;
    private QueueLanes queues = QueueLanes.ONE;
    private PassOrder passOrder = PassOrder.DECLARED;
    private boolean poisonTransients;
    private long laneSemaphore;
    private long laneValue;
    private int[] lastLanes = new int[0];
    private List<String> lastCandidates = List.of();
    private final AsyncPlacement placement = new AsyncPlacement();

    public GraphRuntime(VulkanContext ctx) {
        this(ctx, false);
    }

    /**
     * @param skipBarriers debug only: record frames without the barriers the graph planned, to show with
     *                     synchronization validation that they are what keeps a frame correct
     */
    public GraphRuntime(VulkanContext ctx, boolean skipBarriers) {
        this.ctx = ctx;
        this.skipBarriers = skipBarriers;
        this.pool = new TransientPool(ctx);
        this.querySlots = ctx.options().framesInFlight() + 2;
        this.slotBusyUntil = new long[querySlots];
        this.queries = ctx.info().timestampValidBits() > 0 ? new TimestampQueries(ctx, querySlots * 2 * MAX_TIMED_PASSES) : null;
    }

    /**
     * Starts declaring frame {@code frameNumber}, whose submission signals {@code timelineValue}: collects
     * finished frames' timestamps and tells the listeners (never waits). Called by the one object that owns
     * the frame's lifecycle ({@code dev.tally.Tally#beginFrame}).
     */
    public FrameGraph begin(long frameNumber, long timelineValue) {
        if (frameNumber < frame || (frameNumber == frame && !lastAbandoned)) {
            throw new IllegalStateException("internal: frame " + frameNumber + " begun after frame " + frame);
        }
        lastAbandoned = false;
        frame = frameNumber;
        collectTimings();
        long completed = ctx.completedValue();
        for (FrameListener l : listenerSnapshot) {
            l.frameBegun(frameNumber, completed);
        }
        return new FrameGraph(this, frameNumber, timelineValue, lastGraph == null ? 16 : lastGraph.resources.size(),
                lastGraph == null ? 16 : lastGraph.passes.size());
    }

    /** Frame {@code g} will not be recorded; listeners drop what they prepared for it. */
    public void abandon(FrameGraph g) {
        lastAbandoned = true;
        for (FrameListener l : listenerSnapshot) {
            l.frameAbandoned(g.frame());
        }
    }

    /** Frame {@code g} was just submitted by Tally. */
    public void submitted(FrameGraph g) {
        for (FrameListener l : listenerSnapshot) {
            l.frameSubmitted(g.frame());
        }
    }

    /** {@code listener} hears of every frame's beginning until removed. */
    public void addListener(FrameListener listener) {
        listeners.add(listener);
        listenerSnapshot = listeners.toArray(new FrameListener[0]);
    }

    public void removeListener(FrameListener listener) {
        listeners.remove(listener);
        listenerSnapshot = listeners.toArray(new FrameListener[0]);
    }

    /**
     * A buffer that persists across frames, owned by this runtime. With an initial word, both copies are
     * filled with it at the start of the next recorded frame (no GPU wait here).
     */
    public HistoryBuffer history(String name, BufferDesc desc, Integer initialWord) {
        HistoryBuffer h = new HistoryBuffer(ctx, name, desc, initialWord != null);
        histories.add(h);
        if (initialWord != null) {
            h.copies().forEach(b -> fillOnFirstUse(b, initialWord));
        }
        return h;
    }

    /**
     * Fills a new buffer with {@code word} at the start of the next recorded frame, before any pass: the
     * first-use initialization of scratch and history, recorded instead of waited for. The buffer needs
     * TRANSFER_DST usage and must not have been used by the GPU yet.
     */
    public void fillOnFirstUse(GpuBuffer buffer, int word) {
        pendingFills.add(new Fill(buffer, word));
        states.put(buffer.serial(), ResourceState.after(Access.TRANSFER_DST), Math.max(frame, 0));
    }

    ResourceState stateOf(long serial) {
        return states.get(serial);
    }

    /** The context the graphs record for. */
    public VulkanContext context() {
        return ctx;
    }

    /** Compiles (or reuses the plan for this topology) and records every pass into {@code cmd}: one batch, on the main queue. */
    public void record(FrameGraph g, VkCommandBuffer cmd) {
        recordLanes(g, lane -> cmd, false);
        g.markRecorded();
    }

    /** Where a batch's commands go: a command buffer, begun, for the next batch on {@code lane}. */
    public interface BatchCommands {
        VkCommandBuffer begin(int lane);
    }

    /**
     * One recorded batch: its lane, command buffer (not yet ended), the values of {@link #laneSemaphore()}
     * it waits for and signals (0: none). The last batch is the frame's: the caller adds the frame's signal.
     */
    public record RecordedBatch(QueueBatch batch, VkCommandBuffer cmd, List<Long> waitValues, long signalValue, boolean last) {
    }

    /**
     * Compiles and records every pass into one batch per run of passes on a lane ({@link AsyncMode}):
     * async compute passes on the async lane when there is one (or when lanes are split on one queue).
     * With one lane this is one batch, recorded exactly as {@link #record}.
     */
    public List<RecordedBatch> recordBatches(FrameGraph g, BatchCommands commands) {
        List<RecordedBatch> batches = recordLanes(g, commands, true);
        g.markRecorded();
        return batches;
    }

    /** Every {@code n}th frame times each pass; the others only the frame's span (one queue batch; split frames always time each pass). */
    public void passTimingInterval(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("pass timing interval must be at least 1, got " + n);
        }
        passTimingInterval = n;
    }

    public int passTimingInterval() {
        return passTimingInterval;
    }

    /** Chooses async placement and the lanes; off by default. */
    public void configureAsync(AsyncMode mode, boolean splitOnOneQueue) {
        this.asyncMode = mode;
        if (ctx.asyncQueue() != null) {
            queues = ctx.asyncQueueFamily() != ctx.queueFamily() ? QueueLanes.OTHER_FAMILY : QueueLanes.SAME_FAMILY;
        } else {
            queues = splitOnOneQueue ? QueueLanes.SAME_FAMILY : QueueLanes.ONE;
        }
        plans.clear();
        barrierCache.clear();
    }

    /** The lanes frames are planned for (one, or two with or without ownership transfers). */
    public QueueLanes queueLanes() {
        return asyncMode == AsyncMode.OFF ? QueueLanes.ONE : queues;
    }

    public AsyncMode asyncMode() {
        return asyncMode;
    }

    /** Debug: the order the compiler puts passes in (default: declaration order). Plans are compiled anew. */
    public void debugPassOrder(PassOrder order) {
        this.passOrder = order;
        plans.clear();
        barrierCache.clear();
    }

    /** Debug: fill each transient's memory with NaN (integer formats: a poison colour) before its first use in a frame. */
    public void debugPoisonTransients(boolean on) {
        this.poisonTransients = on;
        pool.poison(on);   // the pool lays out transients anew (they need TRANSFER_DST usage to be filled)
    }

    /** The timeline semaphore between the lanes' batches (created with the first two-lane frame). */
    public long laneSemaphore() {
        return laneSemaphore;
    }

    /** The last recorded frame's topology key: a frame with the same topology reuses it instead of building a string. */
    private String lastTopologyKey;
    /** The GPU object behind each resource id of the frame being recorded (kept from frame to frame). */
    private Object[] objectsScratch = new Object[0];

    private List<RecordedBatch> recordLanes(FrameGraph g, BatchCommands commands, boolean lanesAllowed) {
        g.requireComplete();
        if (g.frame() != frame) {
            throw new IllegalStateException("frame " + g.frame() + "'s graph recorded after frame " + frame + " began; declare and record one frame at a time");
        }
        for (GraphResource r : g.resources) {
            if (r.trackedEntry) {
                r.entry = stateOf(r.physical instanceof GpuBuffer b ? b.serial() : ((GpuImage) r.physical).serial());
            }
        }
        String key = g.topologyKey(lastTopologyKey);   // the previous frame's key object when nothing changed
        lastTopologyKey = key;
        GraphPlan plan = plans.planFor(key, g, passOrder);
        TransientPool.Physical physical = pool.acquire(key, g, plan, frame);
        if (objectsScratch.length < g.resources.size()) {
            objectsScratch = new Object[Math.max(g.resources.size(), 2 * objectsScratch.length)];
        }
        Object[] objects = objectsScratch;   // by resource id; entries past this frame's resources are never read
        for (GraphResource r : g.resources) {
            objects[r.id] = r.transientResource() ? physical.objects[r.id] : r.physical;
        }
        QueueLanes lanesNow = lanesAllowed ? queueLanes() : QueueLanes.ONE;
        List<String> candidates = LaneAssignment.candidates(g, plan);
        // One placement per frame, asked only when it can matter (two lanes and something to place).
        boolean asyncThisFrame = lanesNow.lanes() == 2 && !candidates.isEmpty() && placement.placeAsync(key, asyncMode);
        int[] laneOf = LaneAssignment.assign(g, plan, lanesNow, name -> asyncThisFrame);
        BarrierPlanner.Barriers barriers = barrierCache.planFor(key, g, plan, physical.slotStates, laneOf, lanesNow);
        lastLanes = laneOf;
        lastCandidates = candidates;

        int slot = (int) (frame % querySlots);
        boolean timed = queries != null && ctx.completedValue() >= slotBusyUntil[slot] && plan.order().size() <= MAX_TIMED_PASSES;
        int base = slot * 2 * MAX_TIMED_PASSES;
        List<String> timedPasses = new ArrayList<>();
        List<RecordedBatch> out = new ArrayList<>();
        List<QueueBatch> batches = barriers.batches();
        // Between per-pass frames only the span: a timestamp before the first pass and one after the last.
        boolean spanOnly = timed && frame % passTimingInterval != 0 && batches.size() == 1 && !plan.order().isEmpty();
        boolean perPass = timed && !spanOnly;
        long[] signalOf = new long[batches.size()];
        if (batches.size() > 1 && laneSemaphore == 0) {
            laneSemaphore = createLaneSemaphore();
        }
        for (QueueBatch batch : batches) {
            VkCommandBuffer cmd = commands.begin(batch.lane());
            boolean last = batch.index() == batches.size() - 1;
            if (batch.index() == 0) {
                recordFills(cmd);
                emit(cmd, barriers.prologue(), objects, g);
                if (perPass && batches.size() == 1) {
                    queries.reset(cmd, base, 2 * plan.order().size());
                } else if (spanOnly) {
                    queries.reset(cmd, base, 2);
                }
            }
            if (perPass && batches.size() > 1 && batch.passCount() > 0) {
                queries.reset(cmd, base + 2 * batch.firstPos(), 2 * batch.passCount());
            }
            PassContext passContext = new PassContext(ctx, cmd, objects, frame, g);
            for (int pos = batch.firstPos(); pos < batch.endPos(); pos++) {
                Pass p = g.passes.get(plan.order().get(pos));
                ctx.beginLabel(cmd, p.name);
                List<BarrierSpec> beforeList = barriers.beforePass().get(pos);
                if (poisonTransients) {
                    beforeList = poison(cmd, g, plan, pos, objects, beforeList);
                }
                emit(cmd, beforeList, objects, g);
                if (perPass) {
                    queries.write(cmd, base + 2 * pos);
                } else if (spanOnly && pos == batch.firstPos()) {
                    queries.write(cmd, base);
                }
                passContext.enter(p);
                if (p.kind == PassKind.GRAPHICS) {
                    beginRendering(cmd, p, objects, passContext);
                }
                p.record(passContext);
                passContext.enter(null);
                if (p.kind == PassKind.GRAPHICS) {
                    vkCmdEndRendering(cmd);
                }
                if (perPass) {
                    queries.write(cmd, base + 2 * pos + 1);
                    timedPasses.add(p.name);
                } else if (spanOnly && pos == batch.endPos() - 1) {
                    queries.write(cmd, base + 1);
                }
                emit(cmd, barriers.afterPass().get(pos), objects, g);
                ctx.endLabel(cmd);
            }
            if (last) {
                emit(cmd, barriers.join(), objects, g);
                emit(cmd, barriers.epilogue(), objects, g);
            }
            List<Long> waits = batch.waits().isEmpty() ? List.of() : new ArrayList<>(batch.waits().size());
            for (int w = 0; w < batch.waits().size(); w++) {
                waits.add(signalOf[batch.waits().get(w)]);
            }
            if (batch.signals()) {
                signalOf[batch.index()] = ++laneValue;
            }
            out.add(new RecordedBatch(batch, cmd, List.copyOf(waits), batch.signals() ? signalOf[batch.index()] : 0, last));
        }

        for (GraphResource r : g.resources) {
            ResourceState fin = barriers.finalStates()[r.id];
            if (r.transientResource()) {
                if (plan.slotOf()[r.id] >= 0 && fin != null) {
                    physical.slotStates[plan.slotOf()[r.id]] = fin;
                }
            } else if (fin != null) {
                long serial = r.physical instanceof GpuBuffer b ? b.serial() : ((GpuImage) r.physical).serial();
                states.put(serial, fin, frame);
            }
        }
        for (int i : plan.culled()) {
            stats.culled(g.passes.get(i).name, true);
        }
        for (int i : plan.order()) {
            stats.culled(g.passes.get(i).name, false);
        }
        g.declaredHistories.forEach(HistoryBuffer::advance);
        pruneStates();
        lastGraph = g;
        lastPlan = plan;
        if (timed) {
            slotBusyUntil[slot] = g.timelineValue();
            pending.addLast(new PendingTimings(g.timelineValue(), slot, timedPasses, new AsyncPlacement.Variant(key, asyncThisFrame), spanOnly));
        }
        return out;
    }

    /**
     * Before pass {@code pos}: every transient it uses for the first time this frame gets NaN, and its
     * first-use barrier is widened to follow the fill. Returns the barriers to record.
     */
    private List<BarrierSpec> poison(VkCommandBuffer cmd, FrameGraph g, GraphPlan plan, int pos, Object[] objects, List<BarrierSpec> planned) {
        List<BarrierSpec> out = new ArrayList<>(planned);
        for (Pass.Use u : BarrierPlanner.merged(g, g.passes.get(plan.order().get(pos)))) {
            GraphResource r = g.resources.get(u.resource());
            if (!r.transientResource() || plan.firstUse()[r.id] != pos) {
                continue;
            }
            TransientPoison.fill(cmd, r.image ? (GpuImage) objects[r.id] : null, r.image ? null : (GpuBuffer) objects[r.id]);
            boolean found = false;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).resource() == r.id) {
                    out.set(i, TransientPoison.afterFill(out.get(i)));
                    found = true;
                }
            }
            if (!found) {
                Access a = u.access();
                out.add(TransientPoison.afterFill(new BarrierSpec(r.id, r.image, true, 0, 0, a.stages(), a.access(), VK_IMAGE_LAYOUT_UNDEFINED,
                        r.image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED)));
            }
        }
        return out;
    }

    private long createLaneSemaphore() {
        try (MemoryStack stack = stackPush()) {
            VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default()
                    .semaphoreType(VK12.VK_SEMAPHORE_TYPE_TIMELINE).initialValue(0);
            java.nio.LongBuffer p = stack.mallocLong(1);
            dev.tally.vk.VkCheck.check(vkCreateSemaphore(ctx.device(), VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type.address()),
                    null, p), "vkCreateSemaphore(lanes)");
            ctx.nameObject(VK_OBJECT_TYPE_SEMAPHORE, p.get(0), "tally.lanes");
            return p.get(0);
        }
    }

    private void recordFills(VkCommandBuffer cmd) {
        for (Fill f : pendingFills) {
            // A buffer closed before any frame was recorded (its first frame abandoned) is gone: nothing to fill.
            if (!f.buffer().isClosed()) {
                vkCmdFillBuffer(cmd, f.buffer().handle(), 0, VK_WHOLE_SIZE, f.word());
            }
        }
        pendingFills.clear();
    }

    /** Name under which {@link #stats()} keeps each timed frame's GPU span: first pass start to last pass end. */
    public static final String FRAME_SPAN = "frame.span";
    private final long[] timingTicks = new long[2 * MAX_TIMED_PASSES];

    /** Reads the timestamps of finished frames into {@link #stats()} (never waits; also done when a frame begins). */
    public void collectTimings() {
        if (queries == null) {
            return;
        }
        long done = ctx.completedValue();
        while (!pending.isEmpty() && pending.peekFirst().timelineValue() <= done) {
            PendingTimings t = pending.pollFirst();
            int n = t.passes().size();
            long[] ticks = timingTicks;   // 2 * MAX_TIMED_PASSES: a frame's timestamps, kept
            if (t.spanOnly()) {
                if (queries.read(t.slot() * 2 * MAX_TIMED_PASSES, 2, ticks)) {   // a span-only frame
                    double span = queries.nanos(ticks[0], ticks[1]) / 1000.0;
                    placement.frameSpan(t.variant(), span);
                    stats.add(FRAME_SPAN, span);
                }
                continue;
            }
            if (n > 0 && queries.read(t.slot() * 2 * MAX_TIMED_PASSES, 2 * n, ticks)) {
                long first = Long.MAX_VALUE, lastEnd = Long.MIN_VALUE;
                for (int i = 0; i < n; i++) {
                    stats.add(t.passes().get(i), queries.nanos(ticks[2 * i], ticks[2 * i + 1]) / 1000.0);
                    first = Math.min(first, ticks[2 * i]);
                    lastEnd = Math.max(lastEnd, ticks[2 * i + 1]);
                }
                // The frame's GPU span: first pass start to last pass end (both queues share the device's timestamp clock).
                double span = queries.nanos(first, lastEnd) / 1000.0;
                placement.frameSpan(t.variant(), span);
                stats.add(FRAME_SPAN, span);
            }
        }
    }

    private void pruneStates() {
        if (frame % 64 != 0) {
            return;
        }
        states.forgetOlderThan(frame, 64);
    }

    private void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, PassContext passContext) {
        try (MemoryStack stack = stackPush()) {
            VkRenderingAttachmentInfo.Buffer attachments = VkRenderingAttachmentInfo.calloc(p.attachments.size(), stack);
            int w = 0, h = 0;
            for (int i = 0; i < p.attachments.size(); i++) {
                Pass.Attachment a = p.attachments.get(i);
                GpuImage img = (GpuImage) objects[a.resource()];
                w = img.width();
                h = img.height();
                VkRenderingAttachmentInfo info = attachments.get(i).sType$Default().imageView(img.view())
                        .imageLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL).storeOp(VK_ATTACHMENT_STORE_OP_STORE);
                if (a.clear() != null) {
                    info.loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR);
                    info.clearValue().color().float32(0, a.clear()[0]).float32(1, a.clear()[1]).float32(2, a.clear()[2]).float32(3, a.clear()[3]);
                } else {
                    info.loadOp(VK_ATTACHMENT_LOAD_OP_LOAD);
                }
            }
            VkRenderingInfo rendering = VkRenderingInfo.calloc(stack).sType$Default().layerCount(1).pColorAttachments(attachments);
            rendering.renderArea().extent().set(w, h);
            vkCmdBeginRendering(cmd, rendering);
            passContext.extent(w, h);
        }
    }

    /** The queue family of a lane for an ownership transfer; IGNORED for a barrier within one queue. */
    private int familyOf(int lane) {
        if (lane < 0) {
            return VK_QUEUE_FAMILY_IGNORED;
        }
        return lane == QueueLanes.ASYNC ? ctx.asyncQueueFamily() : ctx.queueFamily();
    }

    private void emit(VkCommandBuffer cmd, List<BarrierSpec> specs, Object[] objects, FrameGraph g) {
        if (specs.isEmpty() || skipBarriers) {
            return;
        }
        barriersEmitted += specs.size();
        try (MemoryStack stack = stackPush()) {
            int buffers = 0, images = 0, memory = 0;
            for (int k = 0; k < specs.size(); k++) {
                BarrierSpec b = specs.get(k);
                if (b.aliasing()) {
                    memory++;
                }
                if (b.image()) {
                    images++;
                } else if (!b.aliasing()) {
                    buffers++;
                }
            }
            // The structs are written by address (static setters): no wrapper object per barrier list.
            long bb = buffers > 0 ? stack.ncalloc(VkBufferMemoryBarrier2.ALIGNOF, buffers, VkBufferMemoryBarrier2.SIZEOF) : 0;
            long ib = images > 0 ? stack.ncalloc(VkImageMemoryBarrier2.ALIGNOF, images, VkImageMemoryBarrier2.SIZEOF) : 0;
            long mb = memory > 0 ? stack.ncalloc(VkMemoryBarrier2.ALIGNOF, memory, VkMemoryBarrier2.SIZEOF) : 0;
            int bi = 0, ii = 0, mi = 0;
            for (int k = 0; k < specs.size(); k++) {
                BarrierSpec b = specs.get(k);
                if (b.aliasing()) {
                    // Memory changes hands between aliased transients: order against the previous occupant.
                    long m = mb + (long) VkMemoryBarrier2.SIZEOF * mi++;
                    VkMemoryBarrier2.nsType(m, VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
                    VkMemoryBarrier2.nsrcStageMask(m, b.srcStages());
                    VkMemoryBarrier2.nsrcAccessMask(m, b.srcAccess());
                    VkMemoryBarrier2.ndstStageMask(m, b.dstStages());
                    VkMemoryBarrier2.ndstAccessMask(m, b.dstAccess());
                }
                if (b.image()) {
                    GpuImage img = (GpuImage) objects[b.resource()];
                    long x = ib + (long) VkImageMemoryBarrier2.SIZEOF * ii++;
                    VkImageMemoryBarrier2.nsType(x, VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2);
                    VkImageMemoryBarrier2.nsrcStageMask(x, b.srcStages());
                    VkImageMemoryBarrier2.nsrcAccessMask(x, b.srcAccess());
                    VkImageMemoryBarrier2.ndstStageMask(x, b.dstStages());
                    VkImageMemoryBarrier2.ndstAccessMask(x, b.dstAccess());
                    VkImageMemoryBarrier2.noldLayout(x, b.oldLayout());
                    VkImageMemoryBarrier2.nnewLayout(x, b.newLayout());
                    VkImageMemoryBarrier2.nsrcQueueFamilyIndex(x, familyOf(b.fromLane()));
                    VkImageMemoryBarrier2.ndstQueueFamilyIndex(x, familyOf(b.toLane()));
                    VkImageMemoryBarrier2.nimage(x, img.handle());
                    long range = x + VkImageMemoryBarrier2.SUBRESOURCERANGE;
                    VkImageSubresourceRange.naspectMask(range, VK_IMAGE_ASPECT_COLOR_BIT);
                    VkImageSubresourceRange.nlevelCount(range, 1);
                    VkImageSubresourceRange.nlayerCount(range, 1);
                } else if (!b.aliasing()) {
                    GpuBuffer buf = (GpuBuffer) objects[b.resource()];
                    long x = bb + (long) VkBufferMemoryBarrier2.SIZEOF * bi++;
                    VkBufferMemoryBarrier2.nsType(x, VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2);
                    VkBufferMemoryBarrier2.nsrcStageMask(x, b.srcStages());
                    VkBufferMemoryBarrier2.nsrcAccessMask(x, b.srcAccess());
                    VkBufferMemoryBarrier2.ndstStageMask(x, b.dstStages());
                    VkBufferMemoryBarrier2.ndstAccessMask(x, b.dstAccess());
                    VkBufferMemoryBarrier2.nsrcQueueFamilyIndex(x, familyOf(b.fromLane()));
                    VkBufferMemoryBarrier2.ndstQueueFamilyIndex(x, familyOf(b.toLane()));
                    VkBufferMemoryBarrier2.nbuffer(x, buf.handle());
                    VkBufferMemoryBarrier2.noffset(x, 0);
                    VkBufferMemoryBarrier2.nsize(x, VK_WHOLE_SIZE);
                }
            }
            long dep = stack.ncalloc(VkDependencyInfo.ALIGNOF, 1, VkDependencyInfo.SIZEOF);
            VkDependencyInfo.nsType(dep, VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
            VkDependencyInfo.nbufferMemoryBarrierCount(dep, buffers);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PBUFFERMEMORYBARRIERS, bb);
            VkDependencyInfo.nimageMemoryBarrierCount(dep, images);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PIMAGEMEMORYBARRIERS, ib);
            VkDependencyInfo.nmemoryBarrierCount(dep, memory);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PMEMORYBARRIERS, mb);
            nvkCmdPipelineBarrier2(cmd, dep);
        }
    }

    public PassStats stats() { return stats; }
    /** Async placement: the candidates, what was chosen and the measured spans. */
    public AsyncPlacement placement() { return placement; }
    /** Names of the last frame's passes that asked for the async queue. */
    public List<String> lastAsyncCandidates() { return lastCandidates; }
    /** Names of the last recorded frame's passes placed on the async lane, in plan order. */
    public List<String> lastAsyncPasses() {
        List<String> out = new ArrayList<>();
        for (int pos = 0; pos < lastLanes.length; pos++) {
            if (lastLanes[pos] == QueueLanes.ASYNC) {
                out.add(lastGraph.passes.get(lastPlan.order().get(pos)).name);
            }
        }
        return out;
    }

    /** The last frame recorded (null before the first). */
    FrameGraph lastRecordedGraph() { return lastGraph; }
    /** Lanes of the last recorded frame's passes, in plan order. */
    public int[] lastLanes() { return lastLanes.clone(); }
    /** The frame begun last (-1 before the first). */
    public long frame() { return frame; }
    /** Barriers recorded so far (0 with skipBarriers). */
    public long barriersEmitted() { return barriersEmitted; }
    /** How many times a frame's barriers were planned (the rest reused those of an earlier frame with the same inputs). */
    public long barrierPlans() { return barrierCache.plans(); }
    /** How many times a frame needed a new compile (the rest reused a cached plan). */
    public long compiles() { return plans.compiles(); }
    /** Vulkan objects the transient pool created so far; flat in steady state. */
    public long transientObjectsCreated() { return pool.objectsCreated(); }

    /** Bytes of transient memory aliasing saved in the last frame. */
    public long lastBytesSaved() {
        return lastPlan == null ? 0 : lastPlan.requestedBytes(lastGraph) - lastPlan.allocatedBytes();
    }

    /** The last recorded frame as Graphviz DOT. */
    public String toDot() {
        return lastGraph == null ? "digraph tally {}\n" : DotExport.toDot(lastGraph, lastPlan);
    }

    @Override
    public void close() {
        pendingFills.clear();
        if (laneSemaphore != 0) {
            long sem = laneSemaphore;
            ctx.defer(() -> vkDestroySemaphore(ctx.device(), sem, null));
        }
        histories.forEach(HistoryBuffer::close);
        pool.close();
        if (queries != null) {
            queries.close();
        }
    }
}

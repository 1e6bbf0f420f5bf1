package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.TimestampQueries;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    private record PendingTimings(long timelineValue, int slot, List<String> passes) {
    }

    private record Fill(GpuBuffer buffer, int word) {
    }

    private final VulkanContext ctx;
    private final TransientPool pool;
    private final Map<String, GraphPlan> plans = new HashMap<>();
    private final Map<Long, ResourceState> states = new HashMap<>();
    private final Map<Long, Long> stateSeen = new HashMap<>();
    private final List<HistoryBuffer> histories = new ArrayList<>();
    private final TimestampQueries queries;
    private final int querySlots;
    private final long[] slotBusyUntil;
    private final ArrayDeque<PendingTimings> pending = new ArrayDeque<>();
    private final PassStats stats = new PassStats();
    private final List<FrameListener> listeners = new ArrayList<>();
    private final List<Fill> pendingFills = new ArrayList<>();
    private final boolean skipBarriers;
    private long frame = -1;
    /** The frame begun last was given up: the next frame may take its number again. */
    private boolean lastAbandoned;
    private long compiles;
    private long barriersEmitted;
    private FrameGraph lastGraph;
    private GraphPlan lastPlan;

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
        for (FrameListener l : List.copyOf(listeners)) {
            l.frameBegun(frameNumber, completed);
        }
        return new FrameGraph(this, frameNumber, timelineValue);
    }

    /** Frame {@code g} will not be recorded; listeners drop what they prepared for it. */
    public void abandon(FrameGraph g) {
        lastAbandoned = true;
        for (FrameListener l : List.copyOf(listeners)) {
            l.frameAbandoned(g.frame());
        }
    }

    /** Frame {@code g} was just submitted by Tally. */
    public void submitted(FrameGraph g) {
        for (FrameListener l : List.copyOf(listeners)) {
            l.frameSubmitted(g.frame());
        }
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
        states.put(buffer.serial(), ResourceState.after(Access.TRANSFER_DST));
        stateSeen.put(buffer.serial(), Math.max(frame, 0));
    }

    ResourceState stateOf(long serial) {
        return states.getOrDefault(serial, ResourceState.UNUSED);
    }

    /** The context the graphs record for. */
    public VulkanContext context() {
        return ctx;
    }

    /** Compiles (or reuses the plan for this topology) and records every pass into {@code cmd}. */
    public void record(FrameGraph g, VkCommandBuffer cmd) {
        g.requireComplete();
        if (g.frame() != frame) {
            throw new IllegalStateException("frame " + g.frame() + "'s graph recorded after frame " + frame + " began; declare and record one frame at a time");
        }
        recordFills(cmd);
        for (GraphResource r : g.resources) {
            if (r.trackedEntry) {
                r.entry = stateOf(r.physical instanceof GpuBuffer b ? b.serial() : ((GpuImage) r.physical).serial());
            }
        }
        String key = g.topologyKey();
        GraphPlan plan = plans.get(key);
        if (plan == null) {
            plan = g.compile();
            compiles++;
            if (plans.size() > 16) {
                plans.clear();
            }
            plans.put(key, plan);
        }
        TransientPool.Physical physical = pool.acquire(key, g, plan, frame);
        Object[] objects = new Object[g.resources.size()];
        for (GraphResource r : g.resources) {
            objects[r.id] = r.transientResource() ? physical.objects[r.id] : r.physical;
        }
        BarrierPlanner.Barriers barriers = BarrierPlanner.plan(g, plan, s -> physical.slotStates[s]);

        int slot = (int) (frame % querySlots);
        boolean timed = queries != null && ctx.completedValue() >= slotBusyUntil[slot] && plan.order().size() <= MAX_TIMED_PASSES;
        int base = slot * 2 * MAX_TIMED_PASSES;
        if (timed) {
            queries.reset(cmd, base, 2 * plan.order().size());
        }
        PassContext passContext = new PassContext(ctx, cmd, objects, frame, g);
        List<String> timedPasses = new ArrayList<>();
        for (int pos = 0; pos < plan.order().size(); pos++) {
            Pass p = g.passes.get(plan.order().get(pos));
            ctx.beginLabel(cmd, p.name);
            emit(cmd, barriers.beforePass().get(pos), objects, g);
            if (timed) {
                queries.write(cmd, base + 2 * pos);
            }
            passContext.enter(p);
            if (p.kind == PassKind.GRAPHICS) {
                beginRendering(cmd, p, objects, passContext);
            }
            p.executor.record(passContext);
            passContext.enter(null);
            if (p.kind == PassKind.GRAPHICS) {
                vkCmdEndRendering(cmd);
            }
            if (timed) {
                queries.write(cmd, base + 2 * pos + 1);
                timedPasses.add(p.name);
            }
            ctx.endLabel(cmd);
        }
        emit(cmd, barriers.epilogue(), objects, g);

        for (GraphResource r : g.resources) {
            ResourceState fin = barriers.finalStates()[r.id];
            if (r.transientResource()) {
                if (plan.slotOf()[r.id] >= 0 && fin != null) {
                    physical.slotStates[plan.slotOf()[r.id]] = fin;
                }
            } else if (fin != null) {
                long serial = r.physical instanceof GpuBuffer b ? b.serial() : ((GpuImage) r.physical).serial();
                states.put(serial, fin);
                stateSeen.put(serial, frame);
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
            pending.addLast(new PendingTimings(g.timelineValue(), slot, timedPasses));
        }
    }

    private void recordFills(VkCommandBuffer cmd) {
        for (Fill f : pendingFills) {
            vkCmdFillBuffer(cmd, f.buffer().handle(), 0, VK_WHOLE_SIZE, f.word());
        }
        pendingFills.clear();
    }

    /** Name under which {@link #stats()} keeps each timed frame's GPU span: first pass start to last pass end. */
    public static final String FRAME_SPAN = "frame.span";

    /** Reads the timestamps of finished frames into {@link #stats()} (never waits; also done when a frame begins). */
    public void collectTimings() {
        if (queries == null) {
            return;
        }
        long done = ctx.completedValue();
        while (!pending.isEmpty() && pending.peekFirst().timelineValue() <= done) {
            PendingTimings t = pending.pollFirst();
            int n = t.passes().size();
            long[] ticks = new long[2 * n];
            if (n > 0 && queries.read(t.slot() * 2 * MAX_TIMED_PASSES, 2 * n, ticks)) {
                for (int i = 0; i < n; i++) {
                    stats.add(t.passes().get(i), queries.nanos(ticks[2 * i], ticks[2 * i + 1]) / 1000.0);
                }
                stats.add(FRAME_SPAN, queries.nanos(ticks[0], ticks[2 * n - 1]) / 1000.0);
            }
        }
    }

    private void pruneStates() {
        if (frame % 64 != 0) {
            return;
        }
        stateSeen.entrySet().removeIf(e -> {
            boolean old = frame - e.getValue() > 64;
            if (old) {
                states.remove(e.getKey());
            }
            return old;
        });
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

    private void emit(VkCommandBuffer cmd, List<BarrierSpec> specs, Object[] objects, FrameGraph g) {
        if (specs.isEmpty() || skipBarriers) {
            return;
        }
        barriersEmitted += specs.size();
        try (MemoryStack stack = stackPush()) {
            int buffers = 0, images = 0, memory = 0;
            for (BarrierSpec b : specs) {
                if (b.aliasing()) {
                    memory++;
                }
                if (b.image()) {
                    images++;
                } else if (!b.aliasing()) {
                    buffers++;
                }
            }
            VkBufferMemoryBarrier2.Buffer bb = buffers > 0 ? VkBufferMemoryBarrier2.calloc(buffers, stack) : null;
            VkImageMemoryBarrier2.Buffer ib = images > 0 ? VkImageMemoryBarrier2.calloc(images, stack) : null;
            VkMemoryBarrier2.Buffer mb = memory > 0 ? VkMemoryBarrier2.calloc(memory, stack) : null;
            int bi = 0, ii = 0, mi = 0;
            for (BarrierSpec b : specs) {
                if (b.aliasing()) {
                    // Memory changes hands between aliased transients: order against the previous occupant.
                    mb.get(mi++).sType$Default().srcStageMask(b.srcStages()).srcAccessMask(b.srcAccess())
                            .dstStageMask(b.dstStages()).dstAccessMask(b.dstAccess());
                }
                if (b.image()) {
                    GpuImage img = (GpuImage) objects[b.resource()];
                    VkImageMemoryBarrier2 x = ib.get(ii++).sType$Default().srcStageMask(b.srcStages()).srcAccessMask(b.srcAccess())
                            .dstStageMask(b.dstStages()).dstAccessMask(b.dstAccess()).oldLayout(b.oldLayout()).newLayout(b.newLayout())
                            .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(img.handle());
                    x.subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
                } else if (!b.aliasing()) {
                    GpuBuffer buf = (GpuBuffer) objects[b.resource()];
                    bb.get(bi++).sType$Default().srcStageMask(b.srcStages()).srcAccessMask(b.srcAccess())
                            .dstStageMask(b.dstStages()).dstAccessMask(b.dstAccess())
                            .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                            .buffer(buf.handle()).offset(0).size(VK_WHOLE_SIZE);
                }
            }
            VkDependencyInfo dep = VkDependencyInfo.calloc(stack).sType$Default();
            if (bb != null) {
                dep.pBufferMemoryBarriers(bb);
            }
            if (ib != null) {
                dep.pImageMemoryBarriers(ib);
            }
            if (mb != null) {
                dep.pMemoryBarriers(mb);
            }
            vkCmdPipelineBarrier2(cmd, dep);
        }
    }

    public PassStats stats() { return stats; }
    /** The frame begun last (-1 before the first). */
    public long frame() { return frame; }
    /** Barriers recorded so far (0 with skipBarriers). */
    public long barriersEmitted() { return barriersEmitted; }
    /** How many times a frame needed a new compile (the rest reused a cached plan). */
    public long compiles() { return compiles; }
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
        histories.forEach(HistoryBuffer::close);
        pool.close();
        if (queries != null) {
            queries.close();
        }
    }
}

package dev.tally.internal.readback;

import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.guard.ConstructionGuard;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;
import dev.tally.readback.ReadbackCounters;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;
import dev.tally.readback.SampleListener;
import dev.tally.readback.TimeSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Host-visible slots that hand the CPU GPU values without ever waiting (except in {@link Mode#SYNC}).
 * <p>
 * The ring follows the frames of its {@link GraphRuntime}. {@link #capture} adds a transfer pass that
 * copies the sources into slot {@code f % N}, then writes the frame number beside the payload and a GPU
 * timestamp. When a frame begins the ring reads the timeline once and delivers, depending on the
 * {@link Mode}: the slot the frame is about to reuse (fixed), or the newest completed one (freshest).
 * A delivered sample carries its provenance (frame, lag, completion time, age); one whose GPU-written
 * frame number is not its frame's is rejected and counted, never delivered. Samples reach
 * {@link #latest()} (polling), {@link #onSample subscribers} (callbacks, optionally into caller-owned
 * arrays: no allocation per sample) and {@link #requestOnce one-shot requests}.
 * <p>
 * Slot layout: a 16-byte header (word 0: the low 32 bits of the frame number, written by the GPU after
 * the copies) then the payload (see {@link SlotLayout}).
 * <p>
 * The ring is the public face and owns the every-frame slots; {@link FrameDelivery} hands samples out,
 * {@link CapturePass} declares and records the copies, {@link OneShotRequests} keeps the one-shot slots
 * and {@link CompletionTimes} dates each sample.
 */
public final class ReadbackRingNode implements ReadbackRing {
    /** The implementation behind a ring Tally made (internal code and tests reach its counters through it). */
    public static ReadbackRingNode of(ReadbackRing ring) {
        return (ReadbackRingNode) ring;
    }





    static final int HEADER_BYTES = 16;

    private final VulkanContext ctx;
    private final GraphRuntime graphs;
    private final String name;
    private final long capacity;
    /** The sources of a capture handed over as a list or a buffer, read into arrays (the capture copies them). */
    private final SourceArrays scratch;
    private final ReadbackSlot[] slots;
    private final Mode mode;
    private final CompletionTimes times;
    private final TimeSource timeSource;
    private final SampleHandOut handOut;
    private final OneShotRequests oneShots;
    private final CapturePass capturePass;
    /** Also the ring's frame listener; the frame being declared or delivered to is the runtime's. */
    private final FrameDelivery delivery;
    private final ReadbackCounters counters;

    /** With {@code maxAgeFrames} equal to the slot count: in fixed mode no sample is stale. */
    public ReadbackRingNode(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode) {
        this(graphs, name, slotCount, capacityBytes, mode, slotCount, null);
    }

    /** As below, capturing with transfer commands only (no {@link ReadbackGather}). */
    public ReadbackRingNode(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode, int maxAgeFrames) {
        this(graphs, name, slotCount, capacityBytes, mode, maxAgeFrames, null);
    }

    /**
     * @param slotCount    more than the frames in flight, so that a slot is never reused while the GPU may still write it
     * @param maxAgeFrames a sample with a larger lag is delivered flagged {@link Sample#stale()} and counted
     * @param gather       the engine's compute copies for captures that allow them, or null: transfer commands only
     */
    public ReadbackRingNode(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode, int maxAgeFrames,
                            ReadbackGather gather) {
        VulkanContext context = graphs.context();
        int inFlight = context.options().framesInFlight();
        if (slotCount <= inFlight) {
            throw new IllegalArgumentException("readback ring '" + name + "': " + slotCount + " slots with " + inFlight
                    + " frames in flight: a slot would be reused while the GPU may still write it; use more than " + inFlight + " slots");
        }
        if (capacityBytes <= 0 || capacityBytes % 4 != 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': capacity must be a positive multiple of 4, got " + capacityBytes);
        }
        if (maxAgeFrames < 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': maxAgeFrames must be >= 0, got " + maxAgeFrames);
        }
        this.ctx = context;
        this.graphs = graphs;
        this.name = name;
        this.capacity = capacityBytes;
        this.scratch = new SourceArrays(name);
        this.mode = mode;
        this.slots = new ReadbackSlot[slotCount];
        long slotBytes = HEADER_BYTES + capacity + 16L * SlotLayout.MAX_REGIONS;   // room for image regions' alignment
        try (ConstructionGuard guard = new ConstructionGuard()) {
            this.times = guard.add(new CompletionTimes(ctx, slotCount));
            for (int i = 0; i < slotCount; i++) {
                slots[i] = new ReadbackSlot(guard.add(ReadbackSlot.newBuffer(ctx, name + ".slot" + i, slotBytes)), i, name + ".slot" + i);
            }
            guard.done();
        }
        this.timeSource = times.source();
        this.handOut = new SampleHandOut(name, slotBytes - HEADER_BYTES, maxAgeFrames, timeSource);
        this.oneShots = new OneShotRequests(ctx, name, slotBytes, slotCount);
        this.capturePass = new CapturePass(name, capacity, times, handOut, gather);
        this.delivery = new FrameDelivery(graphs, mode, slots, oneShots, times, handOut);
        this.counters = new RingCounters(this, handOut, delivery, ctx);
        graphs.addListener(delivery);
    }

    // ---------------------------------------------------------------- capture (while declaring a frame)

    /** Captures the whole of a small buffer (at most the slot capacity). */
    public void capture(FrameGraph g, BufferHandle source) {
        long bytes = Math.min(capacity, g.desc(source).size() & ~3L);   // whole floats
        capture(g, scratch.clear().buffer(source, bytes));
    }

    /** Adds the transfer pass (a side effect, never culled) that copies {@code sources} into this frame's slot. */
    public void capture(FrameGraph frameGraph, List<? extends Source> sources) {
        requireOpenRing();
        capture(frameGraph, scratch.set(sources));
    }

    /** Adds the pass that copies {@code sources}, a list the caller refills each frame, into this frame's slot. */
    public void capture(FrameGraph frameGraph, SourceList sources) {
        GraphDeclaration g = GraphDeclaration.of(frameGraph);
        requireOpenRing();
        requireFrame(g);
        ReadbackSlot slot = slots[(int) (graphs.currentNumber() % slots.length)];   // the current ticket's slotIn, without making it
        if (slot.frame == g.frame()) {
            throw new IllegalStateException("readback ring '" + name + "': captured twice in frame " + g.frame());
        }
        capturePass.add(g, slot, arrays(sources), name, slot.targetName, true);
    }

    /** A new, empty source list for {@link #capture(FrameGraph, SourceList)}, made once and refilled each frame. */
    public SourceList sourceList() {
        return new SourceArrays(name);
    }

    /** {@code sources} as this package's arrays: every source list is made by a ring's {@link #sourceList()}. */
    private SourceArrays arrays(SourceList sources) {
        if (sources instanceof SourceArrays a) {
            return a;
        }
        throw new IllegalArgumentException("readback ring '" + name + "': capture of a source list of class "
                + (sources == null ? "null" : sources.getClass().getName()) + "; make one with ring.sourceList()");
    }

    /**
     * Reads {@code sources} once: delivered exactly once to {@code listener} (may be null) and the returned
     * request's future, at the first frame beginning after the GPU finished. At most as many one-shot
     * requests as the ring has slots may be pending.
     */
    public OneShotRequest requestOnce(FrameGraph frameGraph, List<? extends Source> sources, SampleListener listener) {
        GraphDeclaration g = GraphDeclaration.of(frameGraph);
        requireOpenRing();
        requireFrame(g);
        SourceArrays arrays = scratch.set(sources);   // checked before a slot is taken
        ReadbackSlot slot = oneShots.acquire();
        OneShotRequest request = new OneShotRequest(g.frame(), listener);
        int index = oneShots.indexOf(slot);
        capturePass.add(g, slot, arrays, name + "/once" + index, name + ".once" + index, false);
        slot.request = request;
        return request;
    }

    private void requireFrame(GraphDeclaration g) {
        g.requireDeclaring("readback ring capture", name);   // before anything of the slot changes
        if (!graphs.isCurrent(g)) {
            throw new IllegalStateException("readback ring '" + name + "': capture into frame " + g.frame() + "'s graph, but frame "
                    + delivery.currentFrame() + " is the one begun (was the ring made for another Tally?)");
        }
    }

    // ---------------------------------------------------------------- reading

    /** The newest every-frame sample, or empty before the first one: never waits (allocates a copy once per new sample). */
    public Optional<Sample> latest() {
        return handOut.latest();
    }

    /** Every every-frame sample goes to {@code listener} when its frame begins, on that caller's thread. */
    public Subscriber onSample(SampleListener listener) {
        return handOut.subscribe(listener, null, null);
    }

    /** Each sample is converted into {@code destination} (from index 0), then {@code listener} (may be null) is called. */
    public Subscriber onSample(float[] destination, SampleListener listener) {
        return handOut.subscribe(listener, destination, null);
    }

    /** Each sample's raw payload goes into {@code destination} (from 0, then flipped), then {@code listener} (may be null) is called. */
    public Subscriber onSample(ByteBuffer destination, SampleListener listener) {
        return handOut.subscribe(listener, null, destination);
    }

    /** Test hook: frame {@code f}'s capture records no commands, so that the host sees the slot's previous contents. */
    void injectInvisibleWrite(long f) {
        capturePass.injectInvisibleWrite(f);
    }

    /** Counters; {@code blockingWaits} are the context's readback waits, from the one place that counts waits. */
    public ReadbackStats stats() {
        return new ReadbackStats(slots.length, handOut.samples(), handOut.lastLag(), delivery.notReady(), ctx.waits().count(Waits.Cause.READBACK),
                mode, handOut.lagMin(), handOut.lagMax(), handOut.ageMillisMedian(), handOut.stale(), handOut.rejected(), delivery.superseded(),
                handOut.oneShots(), timeSource);
    }

    /** The counters as a live view, made once: reading them each frame allocates nothing (where {@link #stats()} copies). */
    public ReadbackCounters counters() {
        return counters;
    }

    public int slotCount() {
        return slots.length;
    }

    public Mode mode() {
        return mode;
    }

    public int maxAgeFrames() {
        return handOut.maxAgeFrames();
    }

    /** How this ring's completion times are obtained on this device. */
    public TimeSource timeSource() {
        return timeSource;
    }

    public String name() {
        return name;
    }

    /** How often the GPU clock was paired with the CPU clock (0 with {@link TimeSource#HOST_ESTIMATE}). */
    /** Completion timestamps read through the driver rather than from the memory their frame copied them into. */
    long completionReadsThroughDriver() {
        return times.driverReads();
    }

    long clockCalibrations() {
        return times.calibrations();
    }

    private void requireOpenRing() {
        if (slots[0].buffer.isClosed()) {
            throw new IllegalStateException("readback ring '" + name + "' used after its close(); make another ring");
        }
    }

    @Override
    public void close() {
        if (!slots[0].buffer.isClosed()) {
            graphs.context().requireOpen("readback ring '" + name + "'");
        }
        graphs.removeListener(delivery);
        // Destruction is deferred until the GPU is done, so pending slots leak nothing and need no wait.
        for (ReadbackSlot s : slots) {
            s.buffer.close();
        }
        oneShots.close();
        times.close();
        handOut.close();
    }
}

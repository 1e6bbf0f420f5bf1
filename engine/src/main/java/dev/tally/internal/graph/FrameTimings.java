package dev.tally.internal.graph;

import dev.tally.graph.PassStats;

import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayDeque;

/**
 * GPU time per pass and per frame, from timestamps written around the passes and read back frames later
 * without waiting, into {@link PassStats}; each frame's span also goes to the async placement's trial.
 * One set of queries per frame that may be in flight (plus two, so that a slot is free again by the
 * time it comes round); a frame whose slot is still busy is not timed.
 */
final class FrameTimings {
    static final int MAX_TIMED_PASSES = 64;

    /**
     * A frame's timestamps in flight: two per pass in {@code passes}, or (spanOnly) two for the frame's span.
     * One per slot, filled again each time its slot is timed (a slot holds one frame at a time).
     */
    private static final class Pending {
        final int slot;
        final String[] passes = new String[MAX_TIMED_PASSES];
        int passCount;
        long timelineValue;
        boolean spanOnly;
        /** Copied into host memory by the frame's command buffer (one batch), else read with vkGetQueryPoolResults. */
        boolean copied;
        AsyncPlacement.Variant variant;
        /** Waiting in {@link #pending}: not filled again until collected. */
        boolean queued;

        Pending(int slot) {
            this.slot = slot;
        }
    }

    private final GraphBackend backend;
    private final AsyncPlacement placement;
    private final PassTimes stats = new PassTimes();
    private final int slots;
    private final long[] slotBusyUntil;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final long[] ticks = new long[2 * MAX_TIMED_PASSES];
    private final double[] passMicros = new double[MAX_TIMED_PASSES];
    private int interval = 1;
    // The frame being recorded.
    private boolean timed;
    private boolean spanOnly;
    private boolean perPass;
    /** The frame being recorded copies its timestamps to host memory at its batch's end: frames of one batch. */
    private boolean copied;
    private int slot;
    private int base;
    /** By slot: the frame being recorded fills its slot's, which then waits in {@link #pending}. */
    private final Pending[] bySlot;
    /** The variants frames are timed under, by async or not: the same record while the topology stays. */
    private final AsyncPlacement.Variant[] variants = new AsyncPlacement.Variant[2];
    /** What {@link #passesRecorded} last told the stats: the plan and the pass names it was told for. */
    private GraphPlan lastReportedPlan;
    private String[] lastReportedNames = new String[0];
    private int lastReportedCount;

    FrameTimings(GraphBackend backend, AsyncPlacement placement) {
        this.backend = backend;
        this.placement = placement;
        this.slots = slotCount(backend.framesInFlight());
        this.slotBusyUntil = new long[slots];
        this.bySlot = new Pending[slots];
        for (int s = 0; s < slots; s++) {
            bySlot[s] = new Pending(s);
        }
    }

    /** Timestamp slots for {@code framesInFlight}; times {@code 2 * MAX_TIMED_PASSES} is the queries a backend keeps. */
    static int slotCount(int framesInFlight) {
        return framesInFlight + 2;
    }

    void interval(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("pass timing interval must be at least 1, got " + n);
        }
        interval = n;
    }

    int interval() {
        return interval;
    }

    PassTimes stats() {
        return stats;
    }

    /** Frame {@code frame} with {@code passes} passes in {@code batches} batches is about to be recorded. */
    void frameBegun(long frame, int passes, int batches) {
        slot = (int) (frame % slots);
        timed = backend.timestampCapacity() > 0 && backend.reached(slotBusyUntil[slot]) && !bySlot[slot].queued && passes <= MAX_TIMED_PASSES;
        base = slot * 2 * MAX_TIMED_PASSES;
        // Between per-pass frames only the span: a timestamp before the first pass and one after the last.
        spanOnly = timed && frame % interval != 0 && batches == 1 && passes > 0;
        perPass = timed && !spanOnly;
        // Frames on two lanes read theirs through the driver: a copy per lane would need their memory ordered across queues.
        copied = timed && batches == 1;
        if (timed) {
            bySlot[slot].passCount = 0;
        }
    }

    /** Batch {@code batch} of {@code batches} begins on {@code cmd}: its queries are reset (the first batch's for the whole frame). */
    void batchBegun(VkCommandBuffer cmd, QueueBatch batch, int batches, int passes) {
        if (batch.index() == 0) {
            if (perPass && batches == 1) {
                backend.resetTimestamps(cmd, base, 2 * passes);
            } else if (spanOnly) {
                backend.resetTimestamps(cmd, base, 2);
            }
        }
        if (perPass && batches > 1 && batch.passCount() > 0) {
            backend.resetTimestamps(cmd, base + 2 * batch.firstPos(), 2 * batch.passCount());
        }
    }

    /**
     * Batch {@code batch} of {@code batches} is recorded: in a frame of one batch, the frame's timestamps (all written by
     * now) are copied to host memory, so that {@link #collect} reads memory instead of calling the driver.
     */
    void batchEnded(VkCommandBuffer cmd, QueueBatch batch, int batches, int passes) {
        if (!copied) {   // set only for a frame of one batch
            return;
        }
        if (perPass && passes > 0) {
            backend.copyTimestamps(cmd, base, 2 * passes);
        } else if (spanOnly) {
            backend.copyTimestamps(cmd, base, 2);
        }
    }

    void passBegun(VkCommandBuffer cmd, int pos, QueueBatch batch) {
        if (perPass) {
            backend.writeTimestamp(cmd, base + 2 * pos);
        } else if (spanOnly && pos == batch.firstPos()) {
            backend.writeTimestamp(cmd, base);
        }
    }

    void passEnded(VkCommandBuffer cmd, int pos, QueueBatch batch, String name) {
        if (perPass) {
            backend.writeTimestamp(cmd, base + 2 * pos + 1);
            Pending t = bySlot[slot];
            t.passes[t.passCount++] = name;
        } else if (spanOnly && pos == batch.endPos() - 1) {
            backend.writeTimestamp(cmd, base + 1);
        }
    }

    /** The frame is recorded; it signals {@code timelineValue}, planned under {@code topology} with async passes or not. */
    void frameRecorded(long timelineValue, String topology, boolean async) {
        if (timed) {
            slotBusyUntil[slot] = timelineValue;
            Pending t = bySlot[slot];
            t.timelineValue = timelineValue;
            t.spanOnly = spanOnly;
            t.copied = copied;
            t.variant = variant(topology, async);
            t.queued = true;
            pending.addLast(t);
        }
    }

    /**
     * Which passes ran and which were culled in the frame just recorded. A frame with the last one's plan and the same
     * pass names (the same strings, as nodes keep them) has the same answers: nothing to tell the stats.
     */
    void passesRecorded(GraphDeclaration g, GraphPlan plan) {
        if (plan == lastReportedPlan && sameNames(g)) {
            return;
        }
        lastReportedPlan = plan;
        if (lastReportedNames.length < g.passes.size()) {
            lastReportedNames = new String[Math.max(g.passes.size(), 2 * lastReportedNames.length)];   // a larger graph than before: not per frame
        }
        for (int k = 0; k < g.passes.size(); k++) {
            lastReportedNames[k] = g.passes.get(k).name;
        }
        lastReportedCount = g.passes.size();
        for (int k = 0; k < plan.culled().size(); k++) {
            stats.culled(g.passes.get(plan.culled().get(k)).name, true);
        }
        for (int k = 0; k < plan.order().size(); k++) {
            stats.culled(g.passes.get(plan.order().get(k)).name, false);
        }
    }

    private boolean sameNames(GraphDeclaration g) {
        if (g.passes.size() != lastReportedCount) {
            return false;
        }
        for (int k = 0; k < lastReportedCount; k++) {
            if (g.passes.get(k).name != lastReportedNames[k]) {   // by reference: a node's names are made once
                return false;
            }
        }
        return true;
    }

    private AsyncPlacement.Variant variant(String topology, boolean async) {
        int k = async ? 1 : 0;
        AsyncPlacement.Variant v = variants[k];
        if (v == null || !v.topology().equals(topology)) {   // the same key object while the topology stays: a reference check
            v = new AsyncPlacement.Variant(topology, async);
            variants[k] = v;
        }
        return v;
    }

    /** Reads the timestamps of finished frames into the stats (never waits). */
    void collect() {
        if (backend.timestampCapacity() == 0) {
            return;
        }
        collect(backend.completedValue());
    }

    /** As {@link #collect()}, with the timeline's value {@code done} the caller polled just now. */
    void collect(long done) {
        if (backend.timestampCapacity() == 0) {
            return;
        }
        while (!pending.isEmpty() && pending.peekFirst().timelineValue <= done) {
            Pending t = pending.pollFirst();
            t.queued = false;
            int n = t.passCount;
            int first = t.slot * 2 * MAX_TIMED_PASSES;
            if (t.spanOnly) {
                if (read(t, first, 2)) {
                    span(t, backend.nanos(ticks[0], ticks[1]) / 1000.0);
                }
            } else if (n > 0 && read(t, first, 2 * n)) {
                long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
                for (int i = 0; i < n; i++) {
                    passMicros[i] = backend.nanos(ticks[2 * i], ticks[2 * i + 1]) / 1000.0;
                    start = Math.min(start, ticks[2 * i]);
                    end = Math.max(end, ticks[2 * i + 1]);
                }
                // First pass start to last pass end (both queues share the device's timestamp clock).
                double spanMicros = backend.nanos(start, end) / 1000.0;
                placement.frameSpan(t.variant, spanMicros);
                stats.addFrame(t.passes, passMicros, n, spanMicros);
            }
        }
    }

    private boolean read(Pending t, int first, int count) {
        return t.copied ? backend.readCopiedTimestamps(first, count, ticks) : backend.readTimestamps(first, count, ticks);
    }

    private void span(Pending t, double micros) {
        placement.frameSpan(t.variant, micros);
        stats.add(GraphRuntime.FRAME_SPAN, micros);
    }
}

package dev.tally.internal.readback;

import dev.tally.readback.TimeSource;

import dev.tally.internal.vk.TimestampQueries;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

/**
 * When each slot's copies finished on the GPU, in {@link System#nanoTime()} terms: from a GPU timestamp
 * written after the copies where the device can pair its clock with the CPU's ({@link TimeSource#CALIBRATED}),
 * else estimated from the frame beginnings that saw the slot pending and then done.
 */
final class CompletionTimes implements AutoCloseable {
    private final GpuClock clock;
    private final TimeSource source;
    /** Null without calibrated timestamps: queries 0..N-1 for the every-frame slots, N..2N-1 for one-shot slots. */
    private final TimestampQueries queries;
    private final long[] ticks = new long[1];
    /** Slots whose timestamp the frame being recorded wrote: copied to host memory when its commands end. */
    private final ReadbackSlot[] written;
    private final VulkanContext ctx;
    /** By query: the timeline value of the frame that last wrote it (0: never), so that a host reset waits for nothing. */
    private final long[] queryBusyUntil;
    private int writtenCount;
    private long writtenFrame = -1;
    /** Completion timestamps read through vkGetQueryPoolResults (a frame on two lanes), for tests. */
    private long driverReads;

    CompletionTimes(VulkanContext ctx, int slotCount) {
        this.ctx = ctx;
        this.queryBusyUntil = new long[2 * slotCount];
        boolean timestamps = ctx.info().timestampValidBits() > 0;
        this.clock = new GpuClock(ctx);
        this.source = clock.available() ? TimeSource.CALIBRATED : TimeSource.HOST_ESTIMATE;
        this.queries = source == TimeSource.CALIBRATED && timestamps ? new TimestampQueries(ctx, 2 * slotCount) : null;
        this.written = new ReadbackSlot[2 * slotCount];
    }

    TimeSource source() {
        return source;
    }

    /**
     * Recorded before a slot's copies. From the host only once the frame that last wrote the slot's query has completed:
     * a slot is picked by frame number, and abandoned frames advance the number without taking a frame in flight, so a
     * slot can come round again while its last capture still runs (its delivery then drops it, and the reset is a
     * command the queue orders after it).
     */
    void reset(VkCommandBuffer cmd, ReadbackSlot slot) {
        if (queries != null) {
            queries.reset(cmd, slot.query, 1, ctx.reached(queryBusyUntil[slot.query]));
        }
    }

    /** Recorded after a slot's copies and its sequence number (in frame {@code slot.frame}). */
    void write(VkCommandBuffer cmd, ReadbackSlot slot) {
        slot.timestampCopied = false;
        if (queries != null) {
            queries.write(cmd, slot.query);
            queryBusyUntil[slot.query] = slot.timelineValue;
            if (writtenFrame != slot.frame) {
                writtenFrame = slot.frame;
                writtenCount = 0;
            }
            written[writtenCount++] = slot;
        }
    }

    /**
     * Frame {@code frame}'s last commands: the timestamps its captures wrote are copied into host memory, so that the
     * delivery reads memory rather than calling the driver (whose query read blocks on some drivers while the device
     * works). At the frame's end, after its last pass: the copy waits for the timestamps on the GPU, which inside a
     * pass would hold the passes after it.
     */
    void frameCommandsEnding(VkCommandBuffer cmd, long frame) {
        if (writtenFrame != frame) {
            return;
        }
        for (int i = 0; i < writtenCount; i++) {
            queries.copy(cmd, written[i].query, 1);
            written[i].timestampCopied = true;
        }
        writtenCount = 0;
        writtenFrame = -1;
    }

    /** When {@code s}'s copies completed; {@code beginNanos}: the frame beginning that found it done. */
    long completionNanos(ReadbackSlot s, long now, long beginNanos) {
        if (queries != null && !s.timestampCopied) {
            driverReads++;
        }
        if (queries != null && (s.timestampCopied ? queries.readCopied(s.query, 1, ticks) : queries.read(s.query, 1, ticks))) {
            return clock.cpuNanos(ticks[0], now);
        }
        // Completed after it was last seen pending and before this beginning saw it done.
        long seenPending = Math.min(s.pendingSeenNanos, beginNanos);
        return seenPending + (beginNanos - seenPending) / 2;
    }

    long driverReads() {
        return driverReads;
    }

    long calibrations() {
        return clock.calibrations();
    }

    @Override
    public void close() {
        if (queries != null) {
            queries.close();
        }
    }
}

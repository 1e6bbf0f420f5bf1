package dev.tally.internal.readback;

import org.lwjgl.vulkan.VkCommandBuffer;

import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackRequest;
import dev.tally.internal.graph.FrameTicket;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.readback.ReadbackRing.Mode;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

import static dev.tally.internal.readback.ReadbackRingNode.HEADER_BYTES;

/**
 * Hands out a {@link ReadbackRing}'s samples as its runtime's frames begin (and, in {@link Mode#SYNC}, as
 * Tally submits them): the slot the frame is about to reuse (fixed), the newest completed one (freshest),
 * or the frame just submitted, waited for (sync); one-shot requests whenever their frame is done. Reads
 * the timeline once per beginning, no more than the slots' metadata until it delivers.
 */
final class FrameDelivery implements GraphRuntime.FrameListener {
    private final VulkanContext ctx;
    private final GraphRuntime graphs;
    private final Mode mode;
    /** The every-frame slots (the ring owns them). */
    private final ReadbackSlot[] slots;
    private final OneShotRequests oneShots;
    private final CompletionTimes times;
    private final SampleHandOut handOut;
    // The frame being delivered to is the runtime's (GraphRuntime.currentTicket): no count of its own.
    private long beginNanos;
    private long notReady;
    private long superseded;

    FrameDelivery(GraphRuntime graphs, Mode mode, ReadbackSlot[] slots, OneShotRequests oneShots, CompletionTimes times, SampleHandOut handOut) {
        this.ctx = graphs.context();
        this.graphs = graphs;
        this.mode = mode;
        this.slots = slots;
        this.oneShots = oneShots;
        this.times = times;
        this.handOut = handOut;
    }

    @Override
    public void frameBegun(long frameNumber, long completed) {
        // frameNumber is the runtime's current ticket now
        beginNanos = System.nanoTime();
        oneShots.deliverCompleted(this, completed);
        switch (mode) {
            case SYNC -> readNow(slots[(int) Math.floorMod(frameNumber - 1, (long) slots.length)]);   // caller-submitted frames
            case FIXED -> {
                ReadbackSlot due = slots[(int) (frameNumber % slots.length)];
                if (due.frame >= 0) {
                    if (completed < due.timelineValue) {
                        notReady++;
                        due.frame = -1;   // about to be reused: the sample is lost
                    } else {
                        deliver(due);
                    }
                }
            }
            case FRESHEST -> deliverNewest(completed);
        }
    }

    @Override
    public void frameCommandsEnding(VkCommandBuffer cmd, long frame) {
        times.frameCommandsEnding(cmd, frame);
    }

    @Override
    public void frameSubmitted(long frame) {
        if (mode == Mode.SYNC) {
            readNow(slots[(int) (frame % slots.length)]);   // within the frame: wait, then read
        }
    }

    @Override
    public void frameAbandoned(long abandoned) {
        ReadbackSlot s = slots[(int) (abandoned % slots.length)];
        if (s.frame == abandoned) {
            s.frame = -1;   // its copy never ran
        }
        oneShots.frameAbandoned(abandoned);
    }

    /** Delivers the newest completed slot; older completed ones are superseded. Reads no more than the metadata. */
    private void deliverNewest(long completed) {
        ReadbackSlot newest = null;
        for (ReadbackSlot s : slots) {
            if (s.frame < 0) {
                continue;
            }
            if (s.timelineValue > completed) {
                s.pendingSeenNanos = beginNanos;
            } else if (newest == null || s.frame > newest.frame) {
                newest = s;
            }
        }
        if (newest == null) {
            return;
        }
        for (ReadbackSlot s : slots) {
            if (s != newest && s.frame >= 0 && s.frame < newest.frame) {
                superseded++;
                s.frame = -1;
            }
        }
        deliver(newest);
    }

    /** Delivers {@code s} if the GPU reached its timeline value, else notes it still pending at this beginning. */
    void deliverWhenDone(ReadbackSlot s, long completed) {
        if (s.timelineValue > completed) {
            s.pendingSeenNanos = beginNanos;
        } else {
            deliver(s);
        }
    }

    private void readNow(ReadbackSlot s) {
        if (s.frame >= 0) {
            ctx.waitFor(s.timelineValue, Waits.Cause.READBACK);
            deliver(s);
        }
    }

    /** Hands the slot's sample out (the hand-out checks its sequence number); the slot is then free. */
    private void deliver(ReadbackSlot s) {
        long slotFrame = s.frame;
        OneShotRequest request = s.request;
        s.frame = -1;
        s.request = null;
        long now = System.nanoTime();
        s.buffer.invalidate(0, HEADER_BYTES + s.layout.payloadBytes());
        handOut.deliver(s.buffer.mappedAddress(), s.words, s.layout, slotFrame, s.timelineValue, currentFrame(), times.completionNanos(s, now, beginNanos), now, request);
    }

    /** The number of the frame begun last, -1 before the first. */
    long currentFrame() {
        return graphs.currentNumber();
    }

    /** Every-frame samples lost in fixed mode: the slot was due for reuse before the GPU finished it. */
    long notReady() {
        return notReady;
    }

    /** Completed every-frame samples skipped in freshest mode for a newer one. */
    long superseded() {
        return superseded;
    }
}

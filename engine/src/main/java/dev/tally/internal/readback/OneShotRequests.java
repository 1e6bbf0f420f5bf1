package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.internal.vk.VulkanContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The one-shot slots of a {@link ReadbackRing}: made on demand, reused once delivered or given up, at most
 * as many pending as the ring has every-frame slots. Their timestamp queries follow the every-frame slots'.
 */
final class OneShotRequests {
    private final VulkanContext ctx;
    private final String ringName;
    private final long slotBytes;
    /** The most requests pending at once, and the first query of the one-shot slots. */
    private final int limit;
    private final List<ReadbackSlot> slots = new ArrayList<>();

    OneShotRequests(VulkanContext ctx, String ringName, long slotBytes, int limit) {
        this.ctx = ctx;
        this.ringName = ringName;
        this.slotBytes = slotBytes;
        this.limit = limit;
    }

    /** A free one-shot slot, made when none is free; throws when {@code limit} requests are pending. */
    ReadbackSlot acquire() {
        ReadbackSlot slot = null;
        int pending = 0;
        for (ReadbackSlot s : slots) {
            if (s.request == null && s.frame < 0) {
                slot = slot == null ? s : slot;
            } else {
                pending++;
            }
        }
        if (slot == null) {
            if (pending >= limit) {
                throw new IllegalStateException("readback ring '" + ringName + "': " + pending + " one-shot requests pending (at most "
                        + limit + "); wait for one to be delivered");
            }
            int created = slots.size();
            slot = new ReadbackSlot(ReadbackSlot.newBuffer(ctx, ringName + ".once" + created, slotBytes), limit + created, ringName + ".once" + created);
            slots.add(slot);
        }
        return slot;
    }

    /** The slot's number among the one-shot slots (it names the slot's pass and buffer). */
    int indexOf(ReadbackSlot slot) {
        return slots.indexOf(slot);
    }

    /** Delivers, through {@code delivery}, each pending request whose frame the GPU finished. */
    void deliverCompleted(FrameDelivery delivery, long completed) {
        for (int i = 0; i < slots.size(); i++) {
            ReadbackSlot s = slots.get(i);
            if (s.request != null) {
                delivery.deliverWhenDone(s, completed);
            }
        }
    }

    /** Cancels the requests captured in frame {@code abandoned}: their copies never ran. */
    void frameAbandoned(long abandoned) {
        for (ReadbackSlot o : slots) {
            if (o.request != null && o.frame == abandoned) {
                o.request.cancel();
                o.request = null;
                o.frame = -1;
            }
        }
    }

    /** Cancels what is pending; the buffers' destruction is deferred until the GPU is done. */
    void close() {
        for (ReadbackSlot s : slots) {
            if (s.request != null) {
                s.request.cancel();
            }
            s.buffer.close();
        }
    }
}

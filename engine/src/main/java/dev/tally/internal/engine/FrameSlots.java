package dev.tally.internal.engine;

import dev.tally.internal.graph.FrameTicket;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

import static org.lwjgl.vulkan.VK10.vkDestroyCommandPool;

/**
 * The per-frame-in-flight slots of a set of command pools: which frame's timeline value each slot served last,
 * and the pacing wait before a slot is reused. Keeps no frame count of its own: the slot is the frame's
 * {@link FrameTicket#slot()}, and there are {@link Tally#framesInFlight()} of them. {@code owner} names the
 * pools' owner in errors.
 */
final class FrameSlots {
    private final VulkanContext ctx;
    private final String owner;
    private final long[] value;

    FrameSlots(Engine tally, String owner) {
        this.ctx = tally.context();
        this.owner = owner;
        this.value = new long[tally.framesInFlight()];
    }

    int count() {
        return value.length;
    }

    /**
     * The slot of {@code frame}, once the frame it served last has finished: waits only while that frame still
     * runs (pacing, counted as such). An abandoned frame signalled its value with an empty submission, so its
     * slot's wait is as short as any.
     */
    int acquire(EngineFrame frame, String what) {
        requireOpen();
        frame.requireOwner(what);
        int slot = frame.slot();   // the ticket's, without making it
        if (value[slot] <= ctx.lastSubmitted()) {
            ctx.waitFor(value[slot], Waits.Cause.PACING);
        }
        value[slot] = frame.timelineValue();
        return slot;
    }

    /** Throws, naming the owner, once Tally is closed: the pools died with the device. */
    void requireOpen() {
        ctx.requireOpen(owner);
    }

    /** Destroys the pools that were created (0 entries are skipped). */
    void destroy(long... pools) {
        for (long pool : pools) {
            if (pool != 0) {
                vkDestroyCommandPool(ctx.device(), pool, null);
            }
        }
    }
}

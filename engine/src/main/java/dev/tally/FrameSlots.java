package dev.tally;

import dev.tally.vk.VulkanContext;
import dev.tally.vk.Waits;

import static org.lwjgl.vulkan.VK10.vkDestroyCommandPool;

/**
 * The per-frame-in-flight slots of a set of command pools: which frame's timeline value each slot served last,
 * and the pacing wait before a slot is reused. Keeps no frame count of its own: the slot is the frame's number
 * modulo the slots.
 */
final class FrameSlots {
    private final VulkanContext ctx;
    private final long[] value;

    FrameSlots(VulkanContext ctx) {
        this.ctx = ctx;
        this.value = new long[ctx.options().framesInFlight()];
    }

    int count() {
        return value.length;
    }

    /**
     * The slot of {@code frame}, once the frame it served last has finished: waits only while that frame still
     * runs (pacing, counted as such). A slot whose frame was abandoned (never submitted) is idle and its value
     * was handed out again, so there is nothing to wait for.
     */
    int acquire(Frame frame) {
        int slot = (int) (frame.number() % value.length);
        if (value[slot] <= ctx.lastSubmitted()) {
            ctx.waitFor(value[slot], Waits.Cause.PACING);
        }
        value[slot] = frame.timelineValue();
        return slot;
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

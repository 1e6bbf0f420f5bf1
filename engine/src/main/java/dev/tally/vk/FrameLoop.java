package dev.tally.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;

import static dev.tally.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Frames in flight: one command pool and buffer per frame slot. {@link #begin()} waits only for the
 * frame that last used the slot (frame f - framesInFlight), which in steady state has long finished.
 */
public final class FrameLoop implements AutoCloseable {
    private final VulkanContext ctx;
    private final int framesInFlight;
    private final long[] pools;
    private final VkCommandBuffer[] buffers;
    private final long[] slotValue;
    private long frame;
    private long pacingWaits;
    private VkCommandBuffer current;

    public FrameLoop(VulkanContext ctx) {
        this.ctx = ctx;
        this.framesInFlight = ctx.options().framesInFlight();
        pools = new long[framesInFlight];
        buffers = new VkCommandBuffer[framesInFlight];
        slotValue = new long[framesInFlight];
        try (MemoryStack stack = stackPush()) {
            for (int i = 0; i < framesInFlight; i++) {
                pools[i] = ctx.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
                buffers[i] = ctx.allocateCommandBuffer(pools[i]);
            }
        }
    }

    /** Waits for the slot's previous frame if it is still running, resets and begins its command buffer. */
    public VkCommandBuffer begin() {
        int slot = (int) (frame % framesInFlight);
        if (ctx.completedValue() < slotValue[slot]) {
            pacingWaits++;
            ctx.waitFor(slotValue[slot]);
        }
        ctx.retire();
        check(vkResetCommandPool(ctx.device(), pools[slot], 0), "vkResetCommandPool");
        current = buffers[slot];
        try (MemoryStack stack = stackPush()) {
            check(vkBeginCommandBuffer(current, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
        }
        return current;
    }

    /**
     * Gives up the frame begun by {@link #begin()} (e.g. the swapchain was out of date): nothing is
     * submitted, the next begin() resets the same slot.
     */
    public void abandon() {
        if (current != null) {
            check(vkEndCommandBuffer(current), "vkEndCommandBuffer");
            current = null;
        }
    }

    /** Ends and submits the frame; returns the timeline value its completion signals. */
    public long submit(long waitSemaphore, long waitStage, long signalSemaphore) {
        check(vkEndCommandBuffer(current), "vkEndCommandBuffer");
        long value = ctx.submit(current, waitSemaphore, waitStage, signalSemaphore);
        slotValue[(int) (frame % framesInFlight)] = value;
        frame++;
        current = null;
        return value;
    }

    public long submit() {
        return submit(0, 0, 0);
    }

    /** Frames submitted so far. */
    public long frame() {
        return frame;
    }

    /** Times begin() had to wait for the GPU (the CPU ran framesInFlight frames ahead). */
    public long pacingWaits() {
        return pacingWaits;
    }

    public int framesInFlight() {
        return framesInFlight;
    }

    @Override
    public void close() {
        ctx.waitIdle();
        for (long pool : pools) {
            vkDestroyCommandPool(ctx.device(), pool, null);
        }
    }
}

package dev.tally.internal.engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Command buffers for callers that let Tally submit: one pool and buffer per frame in flight, chosen by
 * the frame's number. {@link #begin} waits only when the slot's previous frame (frame f - framesInFlight)
 * is still running: frame pacing, counted as such in {@link Tally#waits()}. Keeps no frame count of its own.
 * Close it before {@link Tally#close()}: after that, every method throws IllegalStateException.
 */
public final class EngineFrameCommands implements FrameCommands {
    private final VulkanContext ctx;
    private final long[] pools;
    private final VkCommandBuffer[] buffers;
    private final FrameSlots slots;
    private final Engine tally;

    public EngineFrameCommands(Engine tally) {
        this.tally = tally;
        this.ctx = tally.context();
        slots = new FrameSlots(tally, "FrameCommands");
        int framesInFlight = slots.count();
        pools = new long[framesInFlight];
        buffers = new VkCommandBuffer[framesInFlight];
        try (MemoryStack stack = stackPush()) {
            for (int i = 0; i < framesInFlight; i++) {
                pools[i] = ctx.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
                buffers[i] = ctx.allocateCommandBuffer(pools[i]);
            }
        } catch (RuntimeException e) {
            slots.destroy(pools);
            throw e;
        }
    }

    /** Waits for the slot's previous frame if it is still running, then resets and begins its command buffer for {@code frame}. */
    public VkCommandBuffer begin(Frame frame) {
        int slot = slots.acquire(EngineFrame.of(frame), "FrameCommands.begin");
        check(vkResetCommandPool(ctx.device(), pools[slot], 0), "vkResetCommandPool");
        VkCommandBuffer cmd = buffers[slot];
        VulkanContext.beginOneTime(cmd);
        return cmd;
    }

    /** Ends the command buffer begun for a frame. */
    public void end(VkCommandBuffer cmd) {
        slots.requireOpen();
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    }

    public int framesInFlight() {
        return pools.length;
    }

    /** Waits for the GPU (these pools' buffers may be pending), then destroys the pools. */
    @Override
    public void close() {
        slots.requireOpen();
        ctx.waitIdle();
        slots.destroy(pools);
        tally.ownerClosed(this);
    }
}

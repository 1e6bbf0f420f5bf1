package dev.tally.internal.engine;

import dev.tally.LaneCommands;

import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.graph.QueueLanes;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Command buffers for frames recorded in batches ({@link Frame#recordBatches}): per frame in flight, one
 * pool per lane (the async lane's on the async compute family when there is one), buffers reused frame
 * after frame. Waits only when the slot's previous frame is still running (pacing). Close it before
 * {@link Tally#close()}: after that, every method throws IllegalStateException.
 */
public final class EngineLaneCommands implements LaneCommands {
    /** The implementation behind {@code commands}; anything else is refused in one line. */
    static EngineLaneCommands of(LaneCommands commands, long frame) {
        if (commands instanceof EngineLaneCommands c) {
            return c;
        }
        throw new IllegalArgumentException("frame " + frame + ": recordBatches needs the LaneCommands of Tally.laneCommands(), got "
                + (commands == null ? "null" : commands.getClass().getName()));
    }

    private final VulkanContext ctx;
    private final long[][] pools;                       // [slot][lane]
    private final List<List<List<VkCommandBuffer>>> buffers = new ArrayList<>();   // [slot][lane][i]
    private final FrameSlots slots;

    private final Engine tally;

    public EngineLaneCommands(Engine tally) {
        this.tally = tally;
        this.ctx = tally.context();
        slots = new FrameSlots(tally, "LaneCommands");
        pools = new long[slots.count()][2];
        try (MemoryStack stack = stackPush()) {
            for (int s = 0; s < slots.count(); s++) {
                pools[s][0] = ctx.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
                pools[s][1] = ctx.asyncQueue() != null
                        ? ctx.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, ctx.asyncQueueFamily())
                        : ctx.createCommandPool(stack, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
                buffers.add(List.of(new ArrayList<>(), new ArrayList<>()));
            }
        } catch (RuntimeException e) {
            destroyPools();
            throw e;
        }
    }

    /** Waits for the slot's previous frame if it still runs, resets its pools, and hands out begun buffers per lane. */
    GraphRuntime.BatchCommands forFrame(EngineFrame frame) {
        int slot = slots.acquire(frame, "LaneCommands.forFrame");
        for (long pool : pools[slot]) {
            check(vkResetCommandPool(ctx.device(), pool, 0), "vkResetCommandPool");
        }
        handOut.slot = slot;
        handOut.used[0] = 0;
        handOut.used[1] = 0;
        return handOut;
    }

    /** The frame's buffers per lane, handed out in turn: one object for every frame (set by forFrame), so a frame allocates nothing. */
    private final class HandOut implements GraphRuntime.BatchCommands {
        private int slot;
        private final int[] used = new int[2];

        @Override
        public VkCommandBuffer begin(int lane) {
            int l = lane == QueueLanes.ASYNC ? 1 : 0;
            List<VkCommandBuffer> list = buffers.get(slot).get(l);
            if (used[l] == list.size()) {
                list.add(ctx.allocateCommandBuffer(pools[slot][l]));
            }
            VkCommandBuffer cmd = list.get(used[l]++);
            VulkanContext.beginOneTime(cmd);
            return cmd;
        }
    }

    private final HandOut handOut = new HandOut();

    private void destroyPools() {
        for (long[] lanes : pools) {
            slots.destroy(lanes);
        }
    }

    /** Waits for the GPU (these pools' buffers may be pending), then destroys the pools. */
    @Override
    public void close() {
        slots.requireOpen();
        ctx.waitIdle();
        destroyPools();
        tally.ownerClosed(this);
    }
}

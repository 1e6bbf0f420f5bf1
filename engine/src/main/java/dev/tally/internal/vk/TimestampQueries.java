package dev.tally.internal.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkQueryPoolCreateInfo;

import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK13.vkCmdWriteTimestamp2;

/** A pool of GPU timestamps; results are read only once the caller knows the work completed. */
public final class TimestampQueries implements AutoCloseable {
    private final VulkanContext ctx;
    private final long pool;
    private final int capacity;

    public TimestampQueries(VulkanContext ctx, int capacity) {
        this.ctx = ctx;
        this.capacity = capacity;
        try (MemoryStack stack = stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateQueryPool(ctx.device(), VkQueryPoolCreateInfo.calloc(stack).sType$Default()
                    .queryType(VK_QUERY_TYPE_TIMESTAMP).queryCount(capacity), null, p), "vkCreateQueryPool");
            pool = p.get(0);
        }
    }

    public boolean supported() {
        return ctx.info().timestampValidBits() > 0;
    }

    public int capacity() {
        return capacity;
    }

    /** Resets queries [first, first+count) inside the command buffer (before they are written). */
    public void reset(VkCommandBuffer cmd, int first, int count) {
        vkCmdResetQueryPool(cmd, pool, first, count);
    }

    public void write(VkCommandBuffer cmd, int query) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, query);
    }

    /** Reads [first, first+count) as ticks without waiting; returns false when not all are available. */
    public boolean read(int first, int count, long[] ticks) {
        try (MemoryStack stack = stackPush()) {
            // By address, not through a LongBuffer: a read every frame allocates nothing.
            long results = stack.nmalloc(8, count * 16);
            int r = nvkGetQueryPoolResults(ctx.device(), pool, first, count, (long) count * 16, results, 16,
                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
            if (r == VK_NOT_READY) {
                return false;
            }
            check(r, "vkGetQueryPoolResults");
            long mask = ctx.info().timestampValidBits() >= 64 ? -1L : (1L << ctx.info().timestampValidBits()) - 1;
            for (int i = 0; i < count; i++) {
                if (MemoryUtil.memGetLong(results + 16L * i + 8) == 0) {
                    return false;
                }
                ticks[i] = MemoryUtil.memGetLong(results + 16L * i) & mask;
            }
            return true;
        }
    }

    /** Nanoseconds between two tick values. */
    public double nanos(long startTicks, long endTicks) {
        return (endTicks - startTicks) * (double) ctx.info().timestampPeriod();
    }

    @Override
    public void close() {
        long p = pool;
        ctx.defer(() -> vkDestroyQueryPool(ctx.device(), p, null));
    }
}

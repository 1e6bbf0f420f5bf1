package dev.tally.internal.vk;

import dev.tally.vk.MemoryKind;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDependencyInfo;
import org.lwjgl.vulkan.VkMemoryBarrier2;
import org.lwjgl.vulkan.VkQueryPoolCreateInfo;

import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.vkResetQueryPool;
import static org.lwjgl.vulkan.VK13.*;

/**
 * A pool of GPU timestamps; results are read only once the caller knows the work completed: through
 * vkGetQueryPoolResults ({@link #read}), or from host memory a command buffer copied them into
 * ({@link #copy}, then {@link #readCopied}), which costs no driver call when read (on some drivers, lavapipe's
 * among them, vkGetQueryPoolResults blocks while the device runs later work).
 */
public final class TimestampQueries implements AutoCloseable {
    /** Bytes per copied query: the 64-bit value, then its 64-bit availability. */
    private static final int STRIDE = 16;
    private final VulkanContext ctx;
    private final long pool;
    private final int capacity;
    /** The device has hostQueryReset: {@link #reset} calls vkResetQueryPool rather than recording vkCmdResetQueryPool. */
    private final boolean hostReset;
    /** The bits of a timestamp the device writes ({@code timestampValidBits}), the same for every read. */
    private final long mask;
    /** Where {@link #copy} puts results, query i at {@code STRIDE * i}; made at the first copy. */
    private TrackedBuffer results;

    public TimestampQueries(VulkanContext ctx, int capacity) {
        this.ctx = ctx;
        this.hostReset = ctx.hostQueryReset();
        this.capacity = capacity;
        this.mask = ctx.info().timestampValidBits() >= 64 ? -1L : (1L << ctx.info().timestampValidBits()) - 1;
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

    /**
     * Resets queries [first, first+count) before {@code cmd} writes them: from the host now where the device has
     * hostQueryReset, else by a command in {@code cmd}. A reset command inside a frame holds the GPU (about 3 us of an
     * H200's 4K frame, mostly the readback ring's mid-frame reset). Callers reset only queries whose earlier use has
     * completed on the GPU and whose results were read or copied out.
     */
    public void reset(VkCommandBuffer cmd, int first, int count) {
        reset(cmd, first, count, true);
    }

    /**
     * As {@link #reset(VkCommandBuffer, int, int)}, from the host only where {@code gpuDone}: the caller knows every
     * submitted use of the range has completed. Where it does not, the reset is a command in {@code cmd}, which the
     * queue orders after those uses.
     */
    public void reset(VkCommandBuffer cmd, int first, int count, boolean gpuDone) {
        boolean fromHost = hostReset && gpuDone;
        if (fromHost) {
            vkResetQueryPool(ctx.device(), pool, first, count);
        } else {
            vkCmdResetQueryPool(cmd, pool, first, count);
        }
        ctx.queryResets().counted(fromHost, count);
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
            for (int i = 0; i < count; i++) {
                if (MemoryUtil.memGetLong(results + 16L * i + 8) == 0) {
                    return false;
                }
                ticks[i] = MemoryUtil.memGetLong(results + 16L * i) & mask;
            }
            return true;
        }
    }

    /**
     * Records, into {@code cmd} after the queries were written, a copy of [first, first+count) into host memory:
     * the GPU waits for them (VK_QUERY_RESULT_WAIT_BIT) and makes the copy visible to host reads. The barrier before
     * it orders it after earlier copies into the same memory on this queue. Allocates nothing.
     */
    public void copy(VkCommandBuffer cmd, int first, int count) {
        if (results == null) {
            results = new TrackedBuffer(ctx, "timestamps.results", (long) STRIDE * capacity, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        }
        try (MemoryStack stack = stackPush()) {
            barrier(cmd, stack, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdCopyQueryPoolResults(cmd, pool, first, count, results.handle(), (long) STRIDE * first, STRIDE,
                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
            barrier(cmd, stack, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                    VK_ACCESS_2_HOST_READ_BIT);
        }
    }

    /** A global memory barrier, written by address (no struct wrappers on a frame's path). */
    private static void barrier(VkCommandBuffer cmd, MemoryStack stack, long srcStage, long srcAccess, long dstStage, long dstAccess) {
        long mb = stack.ncalloc(VkMemoryBarrier2.ALIGNOF, 1, VkMemoryBarrier2.SIZEOF);
        VkMemoryBarrier2.nsType(mb, VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
        VkMemoryBarrier2.nsrcStageMask(mb, srcStage);
        VkMemoryBarrier2.nsrcAccessMask(mb, srcAccess);
        VkMemoryBarrier2.ndstStageMask(mb, dstStage);
        VkMemoryBarrier2.ndstAccessMask(mb, dstAccess);
        long dep = stack.ncalloc(VkDependencyInfo.ALIGNOF, 1, VkDependencyInfo.SIZEOF);
        VkDependencyInfo.nsType(dep, VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
        VkDependencyInfo.nmemoryBarrierCount(dep, 1);
        MemoryUtil.memPutAddress(dep + VkDependencyInfo.PMEMORYBARRIERS, mb);
        nvkCmdPipelineBarrier2(cmd, dep);
    }

    /**
     * Reads [first, first+count) as ticks from what {@link #copy} put in host memory, once the work that copied them
     * completed; returns false when one was not available.
     */
    public boolean readCopied(int first, int count, long[] ticks) {
        if (results == null) {
            throw new IllegalStateException("internal: timestamps read from host memory before any copy was recorded");
        }
        results.invalidate((long) STRIDE * first, (long) STRIDE * count);
        long base = results.mappedAddress() + (long) STRIDE * first;
        for (int i = 0; i < count; i++) {
            if (MemoryUtil.memGetLong(base + (long) STRIDE * i + 8) == 0) {
                return false;
            }
            ticks[i] = MemoryUtil.memGetLong(base + (long) STRIDE * i) & mask;
        }
        return true;
    }

    /** Nanoseconds between two tick values. */
    public double nanos(long startTicks, long endTicks) {
        return (endTicks - startTicks) * (double) ctx.info().timestampPeriod();
    }

    @Override
    public void close() {
        if (results != null) {
            results.close();
        }
        long p = pool;
        ctx.defer(() -> vkDestroyQueryPool(ctx.device(), p, null));
    }
}

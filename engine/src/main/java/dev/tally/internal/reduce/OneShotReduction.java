package dev.tally.internal.reduce;

import dev.tally.reduce.ReduceStats;

import dev.tally.reduce.ReduceOp;

import dev.tally.internal.vk.Barriers;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.TimestampQueries;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Reduce an array and wait for the answer: for tools ({@code ./tally reduce}) and tests, not for
 * frame loops, which keep the result on the GPU and read it through the readback ring.
 */
public final class OneShotReduction implements AutoCloseable {
    /** The value, the element count and the GPU time of the reduction's dispatches. */
    public record Result(float value, long count, double gpuMillis) {
    }

    private final VulkanContext ctx;
    private final Reducer reducer;
    private final TrackedBuffer result;
    private final TrackedBuffer readback;
    private final TimestampQueries timestamps;
    private TrackedBuffer partials;

    public OneShotReduction(VulkanContext ctx, Reducer reducer) {
        this.ctx = ctx;
        this.reducer = reducer;
        try (dev.tally.internal.guard.ConstructionGuard guard = new dev.tally.internal.guard.ConstructionGuard()) {
            this.result = guard.add(new TrackedBuffer(ctx, "reduce.result", ReduceStats.RECORD_BYTES,
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.DEVICE));
            this.readback = guard.add(new TrackedBuffer(ctx, "reduce.readback", ReduceStats.RECORD_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK));
            this.timestamps = guard.add(new TimestampQueries(ctx, 2));
            guard.done();
        }
    }

    public Result reduce(ReduceOp op, DeviceArray input) {
        ReducePlan plan = reducer.plan(input.count());
        double millis = run(plan.scratchBytes(), 4, cmd -> reducer.record(cmd, op, plan, input.buffer(), 0, partials, result, 0));
        return new Result(MemoryUtil.memGetFloat(readback.mappedAddress()), input.count(), millis);
    }

    /** Count, sum, min, max, mean and variance in one read of the input; also the GPU milliseconds. */
    public record StatsResult(ReduceStats stats, double gpuMillis) {
    }

    public StatsResult stats(DeviceArray input) {
        ReducePlan plan = reducer.plan(input.count());
        double millis = run(plan.statsScratchBytes(), ReduceStats.RECORD_BYTES,
                cmd -> reducer.recordStats(cmd, plan, input.buffer(), 0, partials, result, 0));
        return new StatsResult(ReduceStats.read(MemoryUtil.memByteBuffer(readback.mappedAddress(), ReduceStats.RECORD_BYTES)), millis);
    }

    /** Records {@code body} between timestamps, copies {@code resultBytes} back and waits; returns GPU ms (NaN untimed). */
    private double run(long scratchBytes, int resultBytes, java.util.function.Consumer<org.lwjgl.vulkan.VkCommandBuffer> body) {
        if (partials == null || partials.size() < scratchBytes) {
            if (partials != null) {
                partials.close();
                partials = null;
            }
            partials = new TrackedBuffer(ctx, "reduce.scratch", scratchBytes,
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
            TrackedBuffer fresh = partials;
            // The one-pass ticket counter starts at zero; the kernel resets it after every use.
            ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, fresh.handle(), 0, fresh.size(), 0));
        }
        boolean timed = timestamps.supported();
        ctx.submitAndWait(cmd -> {
            if (timed) {
                timestamps.reset(cmd, 0, 2);
                timestamps.write(cmd, 0);
            }
            body.accept(cmd);
            if (timed) {
                timestamps.write(cmd, 1);
            }
            Barriers.buffer(cmd, result.handle(), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdCopyBuffer(cmd, result.handle(), readback.handle(), VkBufferCopy.calloc(1, stack).size(resultBytes));
            }
            // A fence or semaphore wait alone does not make device writes visible to the host.
            Barriers.buffer(cmd, readback.handle(), VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
        readback.invalidate(0, resultBytes);
        long[] ticks = new long[2];
        if (timed && timestamps.read(0, 2, ticks)) {
            return timestamps.nanos(ticks[0], ticks[1]) / 1e6;
        }
        return Double.NaN;
    }

    @Override
    public void close() {
        if (partials != null) {
            partials.close();
        }
        timestamps.close();
        readback.close();
        result.close();
    }
}

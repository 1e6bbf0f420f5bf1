package dev.tally.demo.bench.replay;

import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.Arrays;

import static org.lwjgl.vulkan.EXTDebugUtils.nvkCmdBeginDebugUtilsLabelEXT;
import static org.lwjgl.vulkan.EXTDebugUtils.vkCmdEndDebugUtilsLabelEXT;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.vkResetQueryPool;
import static org.lwjgl.vulkan.VK13.*;

/**
 * One frame's command-buffer calls as captured (each op and its arguments, the structs they point to copied
 * off-heap once), and how the frame was submitted. {@link #record} issues them again into a command buffer
 * with LWJGL's bindings: no Tally code, no allocation.
 */
public final class CommandStream implements AutoCloseable {
    /** The frame's vkQueueSubmit2 calls and, over all of them, their batches' waits, command buffers and signals. */
    public record Submits(int calls, int batches, int waits, int commandBuffers, int signals) {
    }

    private final CopyArena arena = new CopyArena();
    private StreamOp[] ops = new StreamOp[256];
    private long[] args = new long[256 * StreamOp.MAX_ARGS];
    private int size;
    private Submits submits = new Submits(0, 0, 0, 0, 0);

    /** Appends {@code op}; {@code a} holds its arguments after the command buffer, pointers into the caller's memory (copied here). */
    void add(StreamOp op, long[] a) {
        if (size == ops.length) {
            ops = Arrays.copyOf(ops, size * 2);
            args = Arrays.copyOf(args, size * 2 * StreamOp.MAX_ARGS);
        }
        long[] copy = Arrays.copyOf(a, StreamOp.MAX_ARGS);
        StructCopies.copyArguments(op, copy, arena);
        ops[size] = op;
        System.arraycopy(copy, 0, args, size * StreamOp.MAX_ARGS, StreamOp.MAX_ARGS);
        size++;
    }

    void submitted(int batches, int waits, int commandBuffers, int signals) {
        submits = new Submits(submits.calls() + 1, submits.batches() + batches, submits.waits() + waits,
                submits.commandBuffers() + commandBuffers, submits.signals() + signals);
    }

    public int size() {
        return size;
    }

    public Submits submits() {
        return submits;
    }

    /** How many times the frame called each op, by {@link StreamOp#ordinal()}. */
    public int[] counts() {
        int[] counts = new int[StreamOp.values().length];
        for (int i = 0; i < size; i++) {
            counts[ops[i].ordinal()]++;
        }
        return counts;
    }

    /**
     * The query pools the ops name, each with the queries they reach ([0, end)): pools[i], ends[i]; a new array
     * pair each call (set-up, not a frame's).
     */
    public long[][] queryPools() {
        long[] pools = new long[0], ends = new long[0];
        for (int i = 0; i < size; i++) {
            int arg = ops[i].queryPoolArg();
            if (arg < 0) {
                continue;
            }
            long[] a = Arrays.copyOfRange(args, i * StreamOp.MAX_ARGS, (i + 1) * StreamOp.MAX_ARGS);
            long pool = a[arg];
            long end = ops[i] == StreamOp.WRITE_TIMESTAMP_2 ? a[2] + 1 : a[1] + a[2];   // query + 1, or first + count
            int k = 0;
            while (k < pools.length && pools[k] != pool) {
                k++;
            }
            if (k == pools.length) {
                pools = Arrays.copyOf(pools, k + 1);
                ends = Arrays.copyOf(ends, k + 1);
            }
            pools[k] = pool;
            ends[k] = Math.max(ends[k], end);
        }
        return new long[][]{pools, ends};
    }

    /** Issues every op, in order, into {@code cmd} (begun by the caller), with the frame's own query pools. */
    public void record(VkCommandBuffer cmd) {
        record(cmd, NO_POOLS, NO_POOLS);
    }

    private static final long[] NO_POOLS = new long[0];

    /**
     * Issues every op, in order, into {@code cmd} (begun by the caller), query pool {@code from[i]} replaced by {@code to[i]}:
     * a replay that keeps several frames in flight gives each its own pools, since a host reset may touch only queries the
     * GPU is done with.
     */
    public void record(VkCommandBuffer cmd, long[] from, long[] to) {
        StreamOp[] ops = this.ops;
        long[] a = this.args;
        for (int i = 0, at = 0; i < size; i++, at += StreamOp.MAX_ARGS) {
            switch (ops[i]) {
                case PIPELINE_BARRIER_2 -> nvkCmdPipelineBarrier2(cmd, a[at]);
                case BIND_PIPELINE -> vkCmdBindPipeline(cmd, (int) a[at], a[at + 1]);
                case BIND_DESCRIPTOR_SETS -> nvkCmdBindDescriptorSets(cmd, (int) a[at], a[at + 1], (int) a[at + 2], (int) a[at + 3], a[at + 4],
                        (int) a[at + 5], a[at + 6]);
                case PUSH_CONSTANTS -> nvkCmdPushConstants(cmd, a[at], (int) a[at + 1], (int) a[at + 2], (int) a[at + 3], a[at + 4]);
                case DISPATCH -> vkCmdDispatch(cmd, (int) a[at], (int) a[at + 1], (int) a[at + 2]);
                case DRAW -> vkCmdDraw(cmd, (int) a[at], (int) a[at + 1], (int) a[at + 2], (int) a[at + 3]);
                case SET_VIEWPORT -> nvkCmdSetViewport(cmd, (int) a[at], (int) a[at + 1], a[at + 2]);
                case SET_SCISSOR -> nvkCmdSetScissor(cmd, (int) a[at], (int) a[at + 1], a[at + 2]);
                case BEGIN_RENDERING -> nvkCmdBeginRendering(cmd, a[at]);
                case END_RENDERING -> vkCmdEndRendering(cmd);
                case COPY_BUFFER -> nvkCmdCopyBuffer(cmd, a[at], a[at + 1], (int) a[at + 2], a[at + 3]);
                case COPY_IMAGE_TO_BUFFER -> nvkCmdCopyImageToBuffer(cmd, a[at], (int) a[at + 1], a[at + 2], (int) a[at + 3], a[at + 4]);
                case COPY_BUFFER_TO_IMAGE -> nvkCmdCopyBufferToImage(cmd, a[at], a[at + 1], (int) a[at + 2], (int) a[at + 3], a[at + 4]);
                case FILL_BUFFER -> vkCmdFillBuffer(cmd, a[at], a[at + 1], a[at + 2], (int) a[at + 3]);
                case UPDATE_BUFFER -> nvkCmdUpdateBuffer(cmd, a[at], a[at + 1], a[at + 2], a[at + 3]);
                case RESET_QUERY_POOL -> vkCmdResetQueryPool(cmd, pool(a[at], from, to), (int) a[at + 1], (int) a[at + 2]);
                case HOST_RESET_QUERY_POOL -> vkResetQueryPool(cmd.getDevice(), pool(a[at], from, to), (int) a[at + 1], (int) a[at + 2]);
                case WRITE_TIMESTAMP_2 -> vkCmdWriteTimestamp2(cmd, a[at], pool(a[at + 1], from, to), (int) a[at + 2]);
                case COPY_QUERY_POOL_RESULTS -> vkCmdCopyQueryPoolResults(cmd, pool(a[at], from, to), (int) a[at + 1], (int) a[at + 2], a[at + 3],
                        a[at + 4], a[at + 5], (int) a[at + 6]);
                case CLEAR_COLOR_IMAGE -> nvkCmdClearColorImage(cmd, a[at], (int) a[at + 1], a[at + 2], (int) a[at + 3], a[at + 4]);
                case BEGIN_LABEL -> nvkCmdBeginDebugUtilsLabelEXT(cmd, a[at]);
                case END_LABEL -> vkCmdEndDebugUtilsLabelEXT(cmd);
            }
        }
    }

    private static long pool(long captured, long[] from, long[] to) {
        for (int i = 0; i < from.length; i++) {
            if (from[i] == captured) {
                return to[i];
            }
        }
        return captured;
    }

    @Override
    public void close() {
        arena.close();
        size = 0;
    }
}

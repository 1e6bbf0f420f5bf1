package dev.tally.internal.engine;

import dev.tally.FrameBatch;
import dev.tally.internal.graph.GraphRuntime;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferSubmitInfo;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import static org.lwjgl.system.MemoryUtil.memPutAddress;
import static org.lwjgl.vulkan.VK13.*;

/** A {@link FrameBatch} over the recorder's batch of this frame: one object per batch position, rewritten each frame. */
final class LaneBatch implements FrameBatch {
    private GraphRuntime.RecordedBatch recorded;
    private boolean asyncQueue;
    private long semaphore;

    /** The implementation behind a batch of {@link dev.tally.Frame#recordBatches}; anything else is refused in one line. */
    static LaneBatch of(FrameBatch batch, long frame) {
        if (batch instanceof LaneBatch b) {
            return b;
        }
        throw new IllegalArgumentException("frame " + frame + ": submit takes the batches recordBatches returned, got "
                + (batch == null ? "null" : batch.getClass().getName()));
    }

    LaneBatch set(GraphRuntime.RecordedBatch recorded, boolean asyncQueue, long semaphore) {
        this.recorded = recorded;
        this.asyncQueue = asyncQueue;
        this.semaphore = semaphore;
        return this;
    }

    @Override public int lane() { return recorded.batch().lane(); }
    @Override public boolean asyncQueue() { return asyncQueue; }
    @Override public VkCommandBuffer cmd() { return recorded.cmd(); }
    @Override public long semaphore() { return semaphore; }
    @Override public int waitCount() { return recorded.waitCount(); }
    @Override public long waitValue(int i) { return recorded.waitValue(i); }
    @Override public long signalValue() { return recorded.signalValue(); }
    @Override public boolean last() { return recorded.last(); }

    /** Written by address (static setters): it runs every frame, and struct wrappers would be garbage each time. */
    @Override
    public void fill(VkSubmitInfo2 submit, MemoryStack stack) {
        fillAt(submit.address(), stack);
    }

    /** {@link #fill} into the VkSubmitInfo2 at {@code info}. */
    void fillAt(long info, MemoryStack stack) {
        VkSubmitInfo2.nsType(info, VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
        long cmdInfo = stack.ncalloc(VkCommandBufferSubmitInfo.ALIGNOF, 1, VkCommandBufferSubmitInfo.SIZEOF);
        VkCommandBufferSubmitInfo.nsType(cmdInfo, VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
        memPutAddress(cmdInfo + VkCommandBufferSubmitInfo.COMMANDBUFFER, recorded.cmd().address());
        VkSubmitInfo2.ncommandBufferInfoCount(info, 1);
        memPutAddress(info + VkSubmitInfo2.PCOMMANDBUFFERINFOS, cmdInfo);
        int waits = recorded.waitCount();
        if (waits > 0) {
            long list = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, waits, VkSemaphoreSubmitInfo.SIZEOF);
            for (int i = 0; i < waits; i++) {
                SemaphoreInfos.write(list + (long) i * VkSemaphoreSubmitInfo.SIZEOF, semaphore, recorded.waitValue(i),
                        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            }
            VkSubmitInfo2.nwaitSemaphoreInfoCount(info, waits);
            memPutAddress(info + VkSubmitInfo2.PWAITSEMAPHOREINFOS, list);
        }
        if (recorded.signalValue() != 0) {
            long signal = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, 1, VkSemaphoreSubmitInfo.SIZEOF);
            SemaphoreInfos.write(signal, semaphore, recorded.signalValue(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            VkSubmitInfo2.nsignalSemaphoreInfoCount(info, 1);
            memPutAddress(info + VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, signal);
        }
    }
}

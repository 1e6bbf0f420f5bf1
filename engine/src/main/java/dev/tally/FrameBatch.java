package dev.tally;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferSubmitInfo;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.util.List;

import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;

/**
 * One submission of a frame recorded in batches: its command buffer (ended), the queue it goes to (the
 * async compute queue, or the main one), and the values of the lane semaphore it waits for and signals.
 * Submit the batches in list order; the last one also carries the frame's timeline signal
 * ({@link Frame#signal(VkSubmitInfo2, MemoryStack)} adds it), or let {@link Frame#submit(List)} do all of it.
 *
 * @param lane        the queue lane the batch's passes run on: 0 the main lane, 1 the async compute lane
 * @param asyncQueue  true: the batch goes to the async compute queue of Tally's own device, which
 *                    {@link Frame#submit(List)} submits to; false: the main queue. A wrapped device has no
 *                    second queue, so lanes are split on the main queue and this is false throughout
 * @param cmd         the batch's command buffer, ended
 * @param semaphore   the lane semaphore (timeline) the waits and signal refer to
 * @param waitValues  the values of {@code semaphore} the batch waits for before any of its commands (empty: none)
 * @param signalValue the value of {@code semaphore} the batch signals; 0 when nothing waits for this batch
 * @param last        the frame's last batch: the one that must also carry the frame's timeline signal
 */
public record FrameBatch(int lane, boolean asyncQueue, VkCommandBuffer cmd, long semaphore, List<Long> waitValues, long signalValue,
                         boolean last) {
    /**
     * Fills {@code submit} with this batch's command buffer, waits (all commands wait) and signal, allocated on {@code stack}.
     *
     * @param submit the caller's submit info, for {@code vkQueueSubmit2}
     * @param stack  where the lists are allocated; it must outlive the submit call
     */
    public void fill(VkSubmitInfo2 submit, MemoryStack stack) {
        submit.sType$Default().pCommandBufferInfos(VkCommandBufferSubmitInfo.calloc(1, stack).sType$Default().commandBuffer(cmd));
        if (!waitValues.isEmpty()) {
            VkSemaphoreSubmitInfo.Buffer waits = VkSemaphoreSubmitInfo.calloc(waitValues.size(), stack);
            for (int i = 0; i < waitValues.size(); i++) {
                waits.get(i).sType$Default().semaphore(semaphore).value(waitValues.get(i)).stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            }
            submit.pWaitSemaphoreInfos(waits);
        }
        if (signalValue != 0) {
            submit.pSignalSemaphoreInfos(VkSemaphoreSubmitInfo.calloc(1, stack).sType$Default().semaphore(semaphore).value(signalValue)
                    .stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT));
        }
    }
}

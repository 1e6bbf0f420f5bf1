package dev.tally.internal.engine;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;

import static org.lwjgl.vulkan.VK13.VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;

/**
 * VkSemaphoreSubmitInfo lists of a VkSubmitInfo2, written by address (static setters): the submit paths run every
 * frame, and struct wrappers would be garbage each time.
 */
final class SemaphoreInfos {
    private SemaphoreInfos() {
    }

    /**
     * Grows the semaphore list of the VkSubmitInfo2 at {@code info} (count and pointer at those offsets) by one zeroed
     * entry on {@code stack}, and returns the new entry's address.
     */
    static long appended(long info, int countOffset, int pointerOffset, MemoryStack stack) {
        int count = MemoryUtil.memGetInt(info + countOffset);
        long list = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, count + 1, VkSemaphoreSubmitInfo.SIZEOF);
        if (count > 0) {
            MemoryUtil.memCopy(MemoryUtil.memGetAddress(info + pointerOffset), list, (long) count * VkSemaphoreSubmitInfo.SIZEOF);
        }
        MemoryUtil.memPutInt(info + countOffset, count + 1);
        MemoryUtil.memPutAddress(info + pointerOffset, list);
        return list + (long) count * VkSemaphoreSubmitInfo.SIZEOF;
    }

    /** Fills the (zeroed) VkSemaphoreSubmitInfo at {@code at}. */
    static void write(long at, long semaphore, long value, long stages) {
        VkSemaphoreSubmitInfo.nsType(at, VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
        VkSemaphoreSubmitInfo.nsemaphore(at, semaphore);
        VkSemaphoreSubmitInfo.nvalue(at, value);
        VkSemaphoreSubmitInfo.nstageMask(at, stages);
    }
}

package dev.tally.internal.engine;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkTimelineSemaphoreSubmitInfo;

import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;

/**
 * Adds a timeline signal to a host's {@code VkSubmitInfo} (for {@code vkQueueSubmit}): the semaphore at the
 * end of its signal list, and its value in the {@code VkTimelineSemaphoreSubmitInfo} of the pNext chain,
 * which is extended when the host chained one and chained in front otherwise. Binary semaphores the host
 * signals keep value 0 (ignored by Vulkan). Written by address on {@code stack}: no wrapper objects per frame.
 */
final class SubmitInfoSignal {
    private SubmitInfoSignal() {
    }

    static void append(VkSubmitInfo submit, long semaphore, long value, MemoryStack stack) {
        long info = submit.address();
        int count = VkSubmitInfo.nsignalSemaphoreCount(info);
        long oldSemaphores = MemoryUtil.memGetAddress(info + VkSubmitInfo.PSIGNALSEMAPHORES);
        long semaphores = stack.nmalloc(8, 8 * (count + 1));
        if (count > 0) {
            MemoryUtil.memCopy(oldSemaphores, semaphores, 8L * count);
        }
        MemoryUtil.memPutLong(semaphores + 8L * count, semaphore);

        long timeline = find(MemoryUtil.memGetAddress(info + VkSubmitInfo.PNEXT));
        long values = stack.ncalloc(8, count + 1, 8);
        if (timeline == NULL) {
            timeline = stack.ncalloc(VkTimelineSemaphoreSubmitInfo.ALIGNOF, 1, VkTimelineSemaphoreSubmitInfo.SIZEOF);
            MemoryUtil.memPutInt(timeline + VkTimelineSemaphoreSubmitInfo.STYPE, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
            MemoryUtil.memPutAddress(timeline + VkTimelineSemaphoreSubmitInfo.PNEXT, MemoryUtil.memGetAddress(info + VkSubmitInfo.PNEXT));
            MemoryUtil.memPutAddress(info + VkSubmitInfo.PNEXT, timeline);
        } else {
            int hostValues = MemoryUtil.memGetInt(timeline + VkTimelineSemaphoreSubmitInfo.SIGNALSEMAPHOREVALUECOUNT);
            if (hostValues == count && count > 0) {
                MemoryUtil.memCopy(MemoryUtil.memGetAddress(timeline + VkTimelineSemaphoreSubmitInfo.PSIGNALSEMAPHOREVALUES), values, 8L * count);
            } else if (hostValues != 0) {
                throw new IllegalArgumentException("frame.signal(VkSubmitInfo): the chained VkTimelineSemaphoreSubmitInfo has "
                        + hostValues + " signal values for " + count + " signal semaphores; Vulkan needs 0 or one per semaphore");
            }
        }
        MemoryUtil.memPutLong(values + 8L * count, value);
        MemoryUtil.memPutInt(timeline + VkTimelineSemaphoreSubmitInfo.SIGNALSEMAPHOREVALUECOUNT, count + 1);
        MemoryUtil.memPutAddress(timeline + VkTimelineSemaphoreSubmitInfo.PSIGNALSEMAPHOREVALUES, values);
        VkSubmitInfo.nsignalSemaphoreCount(info, count + 1);
        MemoryUtil.memPutAddress(info + VkSubmitInfo.PSIGNALSEMAPHORES, semaphores);
    }

    private static long find(long chain) {
        for (long s = chain; s != NULL; s = MemoryUtil.memGetAddress(s + 8)) {
            if (MemoryUtil.memGetInt(s) == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO) {
                return s;
            }
        }
        return NULL;
    }
}

package dev.tally.internal.vk;

import org.lwjgl.vulkan.KHRSwapchain;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkPresentInfoKHR;
import org.lwjgl.vulkan.VkQueue;

import java.nio.IntBuffer;
import java.util.concurrent.locks.Lock;

import static org.lwjgl.vulkan.VK10.VK_NULL_HANDLE;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;

/** Swapchain acquire and present on the main queue, both through the {@link FaultInjector} (out-of-date acquires, suboptimal presents). */
public final class Presentation {
    private final VkDevice device;
    private final VkQueue queue;
    private final Lock queueLock;
    private final FaultInjector faults;

    Presentation(VkDevice device, VkQueue queue, Lock queueLock, FaultInjector faults) {
        this.device = device;
        this.queue = queue;
        this.queueLock = queueLock;
        this.faults = faults;
    }

    /** vkAcquireNextImageKHR, or VK_ERROR_OUT_OF_DATE_KHR when the fault plan says this acquire is to be out of date. */
    public int acquireNextImage(long swapchain, long timeoutNs, long semaphore, IntBuffer index) {
        if (faults.acquireOutOfDate()) {
            return KHRSwapchain.VK_ERROR_OUT_OF_DATE_KHR;
        }
        return KHRSwapchain.vkAcquireNextImageKHR(device, swapchain, timeoutNs, semaphore, VK_NULL_HANDLE, index);
    }

    /** vkQueuePresentKHR under the queue lock; a successful present is reported as VK_SUBOPTIMAL_KHR when the fault plan says so. */
    public int present(VkPresentInfoKHR info) {
        int r;
        queueLock.lock();
        try {
            r = KHRSwapchain.vkQueuePresentKHR(queue, info);
        } finally {
            queueLock.unlock();
        }
        return r == VK_SUCCESS && faults.presentSuboptimal() ? KHRSwapchain.VK_SUBOPTIMAL_KHR : r;
    }
}

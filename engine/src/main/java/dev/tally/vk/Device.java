package dev.tally.vk;

import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPresentInfoKHR;
import org.lwjgl.vulkan.VkQueue;

import java.nio.IntBuffer;
import java.util.concurrent.locks.Lock;

/**
 * The Vulkan objects Tally runs on ({@code Tally.device()}): its own after {@code Tally.open}, the host's after
 * {@code Tally.wrap}. A host that opened Tally makes its swapchain, pipelines and samplers on these; it presents
 * and acquires through {@link #present} and {@link #acquireNextImage} (under the queue's lock, and through
 * {@code debug.injectFault}), and never destroys them.
 */
public interface Device {
    /** {@return the instance} */
    VkInstance instance();

    /** {@return the physical device} */
    VkPhysicalDevice physicalDevice();

    /** {@return the logical device} */
    VkDevice device();

    /** {@return the queue Tally submits to (graphics and compute)} */
    VkQueue queue();

    /** {@return the family of {@link #queue()}} */
    int queueFamily();

    /** {@return the lock held around every submit and present on {@link #queue()}; hold it around your own} */
    Lock queueLock();

    /** {@return the device's name, as the driver reports it} */
    String name();

    /**
     * {@return whether optimal-tiling images of {@code format} have every one of {@code features}}
     *
     * @param format   a VkFormat
     * @param features VkFormatFeatureFlags
     */
    boolean formatSupports(int format, int features);

    /**
     * vkAcquireNextImageKHR on {@link #device()}; reports VK_ERROR_OUT_OF_DATE_KHR when {@code debug.injectFault}
     * says this acquire is to be out of date.
     *
     * @param swapchain the VkSwapchainKHR
     * @param timeoutNs how long it may block
     * @param semaphore signalled when the image is ready
     * @param index     receives the image's index
     * @return the VkResult
     */
    int acquireNextImage(long swapchain, long timeoutNs, long semaphore, IntBuffer index);

    /**
     * vkQueuePresentKHR on {@link #queue()} under {@link #queueLock()}; a successful present reports
     * VK_SUBOPTIMAL_KHR when {@code debug.injectFault} says so.
     *
     * @param info the present
     * @return the VkResult
     */
    int present(VkPresentInfoKHR info);

    /**
     * Runs {@code destroy} once the GPU has finished everything submitted so far (checked without waiting when a
     * frame begins, and at {@link #waitIdle()}; at once when it already has): for the host's own objects that its
     * last frames still use.
     *
     * @param destroy what destroys them
     */
    void defer(Runnable destroy);

    /**
     * Blocks until the GPU has finished every frame submitted so far, then runs what was deferred: for resizes,
     * reloads, tools and shutdown, never on a frame's path (the wait is counted in {@code Diagnostics}).
     */
    void waitIdle();
}

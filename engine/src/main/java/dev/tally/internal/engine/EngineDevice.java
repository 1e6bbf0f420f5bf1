package dev.tally.internal.engine;

import dev.tally.internal.vk.VulkanContext;
import dev.tally.vk.Device;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPresentInfoKHR;
import org.lwjgl.vulkan.VkQueue;

import java.nio.IntBuffer;
import java.util.concurrent.locks.Lock;

/** The exported view of the context's device, queue, presentation and deferred destruction. */
final class EngineDevice implements Device {
    private final VulkanContext ctx;

    EngineDevice(VulkanContext ctx) {
        this.ctx = ctx;
    }

    @Override public VkInstance instance() { return ctx.instance(); }
    @Override public VkPhysicalDevice physicalDevice() { return ctx.physicalDevice(); }
    @Override public VkDevice device() { return ctx.device(); }
    @Override public VkQueue queue() { return ctx.queue(); }
    @Override public int queueFamily() { return ctx.queueFamily(); }
    @Override public Lock queueLock() { return ctx.queueLock(); }
    @Override public String name() { return ctx.info().name(); }
    @Override public boolean formatSupports(int format, int features) { return ctx.optimalTilingSupports(format, features); }

    @Override
    public int acquireNextImage(long swapchain, long timeoutNs, long semaphore, IntBuffer index) {
        ctx.requireOpen("acquireNextImage");
        return ctx.acquireNextImage(swapchain, timeoutNs, semaphore, index);
    }

    @Override
    public int present(VkPresentInfoKHR info) {
        ctx.requireOpen("present");
        return ctx.present(info);
    }

    @Override
    public void defer(Runnable destroy) {
        if (destroy == null) {
            throw new IllegalArgumentException("Device.defer: destroy is null; pass what destroys the objects");
        }
        ctx.defer(destroy);
    }

    @Override
    public void waitIdle() {
        ctx.waitIdle();
        ctx.retire();
    }
}

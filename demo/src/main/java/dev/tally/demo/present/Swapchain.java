package dev.tally.demo.present;

import dev.tally.Tally;
import dev.tally.vk.Device;
import dev.tally.vk.GpuImage;
import dev.tally.vk.VulkanException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.nio.LongBuffer;

import static dev.tally.vk.VulkanException.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.KHRSurface.*;
import static org.lwjgl.vulkan.KHRSwapchain.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A swapchain with the semaphores presentation needs: one acquire semaphore per frame in flight and
 * one render-finished semaphore per image (a present may still wait on it when the slot comes round).
 * OUT_OF_DATE and SUBOPTIMAL mark it for recreation; acquire never waits unboundedly.
 */
public final class Swapchain implements AutoCloseable {
    private static final long ACQUIRE_TIMEOUT_NS = 2_000_000_000L;
    /** An acquire that takes longer than this blocked for an image (a non-blocking one returns in microseconds). */
    private static final long ACQUIRE_BLOCKED_NS = 200_000;
    private final Tally tally;
    private final Device gpu;
    private final long surface;
    private final boolean vsync;
    private long swapchain;
    private GpuImage[] images = new GpuImage[0];
    private long[] renderFinished = new long[0];
    private final long[] acquired;
    private int width;
    private int height;
    private int format;
    private boolean stale;
    private long recreations;
    /** Acquires that blocked for an image (vsync holding the CPU back), and for how long: the demo's pacing beside Tally's. */
    private long acquireWaits;
    private long acquireWaitNanos;

    public Swapchain(Tally tally, long surface, int width, int height, boolean vsync) {
        this.tally = tally;
        this.gpu = tally.device();
        this.surface = surface;
        this.vsync = vsync;
        this.acquired = new long[tally.framesInFlight()];
        try (MemoryStack stack = stackPush()) {
            IntBuffer supported = stack.mallocInt(1);
            check(vkGetPhysicalDeviceSurfaceSupportKHR(gpu.physicalDevice(), gpu.queueFamily(), surface, supported),
                    "vkGetPhysicalDeviceSurfaceSupportKHR");
            if (supported.get(0) == 0) {
                throw new VulkanException("the chosen queue family cannot present to this window");
            }
            for (int i = 0; i < acquired.length; i++) {
                acquired[i] = semaphore(stack);
            }
        }
        create(width, height);
    }

    private long semaphore(MemoryStack stack) {
        LongBuffer p = stack.mallocLong(1);
        check(vkCreateSemaphore(gpu.device(), VkSemaphoreCreateInfo.calloc(stack).sType$Default(), null, p), "vkCreateSemaphore");
        return p.get(0);
    }

    /** (Re)creates for the window's current size; returns false while the extent is zero (minimized). */
    public boolean create(int wantW, int wantH) {
        try (MemoryStack stack = stackPush()) {
            VkSurfaceCapabilitiesKHR caps = VkSurfaceCapabilitiesKHR.malloc(stack);
            check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu.physicalDevice(), surface, caps), "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
            int w = caps.currentExtent().width() != -1 ? caps.currentExtent().width() : clamp(wantW, caps.minImageExtent().width(), caps.maxImageExtent().width());
            int h = caps.currentExtent().height() != -1 ? caps.currentExtent().height() : clamp(wantH, caps.minImageExtent().height(), caps.maxImageExtent().height());
            if (w == 0 || h == 0) {
                return false;
            }
            drainQueue("swapchain recreation");
            int chosenFormat = chooseFormat(stack);
            int presentMode = choosePresentMode(stack);
            int count = Math.max(caps.minImageCount() + 1, 3);
            if (caps.maxImageCount() > 0) {
                count = Math.min(count, caps.maxImageCount());
            }
            VkSwapchainCreateInfoKHR info = VkSwapchainCreateInfoKHR.calloc(stack).sType$Default().surface(surface).minImageCount(count)
                    .imageFormat(chosenFormat).imageColorSpace(KHRSurface.VK_COLOR_SPACE_SRGB_NONLINEAR_KHR).imageArrayLayers(1)
                    .imageUsage(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT)
                    .imageSharingMode(VK_SHARING_MODE_EXCLUSIVE).preTransform(caps.currentTransform())
                    .compositeAlpha(VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR).presentMode(presentMode).clipped(true).oldSwapchain(swapchain);
            info.imageExtent().set(w, h);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSwapchainKHR(gpu.device(), info, null, p), "vkCreateSwapchainKHR");
            destroyImages();
            if (swapchain != 0) {
                vkDestroySwapchainKHR(gpu.device(), swapchain, null);
            }
            swapchain = p.get(0);
            IntBuffer n = stack.mallocInt(1);
            check(vkGetSwapchainImagesKHR(gpu.device(), swapchain, n, null), "vkGetSwapchainImagesKHR");
            LongBuffer handles = stack.mallocLong(n.get(0));
            check(vkGetSwapchainImagesKHR(gpu.device(), swapchain, n, handles), "vkGetSwapchainImagesKHR");
            images = new GpuImage[n.get(0)];
            renderFinished = new long[n.get(0)];
            for (int i = 0; i < images.length; i++) {
                images[i] = tally.wrapImage("swapchain" + i, handles.get(i), w, h, chosenFormat,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
                renderFinished[i] = semaphore(stack);
            }
            width = w;
            height = h;
            format = chosenFormat;
            stale = false;
            recreations++;
            return true;
        }
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private int chooseFormat(MemoryStack stack) {
        IntBuffer n = stack.mallocInt(1);
        check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu.physicalDevice(), surface, n, null), "vkGetPhysicalDeviceSurfaceFormatsKHR");
        VkSurfaceFormatKHR.Buffer formats = VkSurfaceFormatKHR.malloc(n.get(0), stack);
        check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu.physicalDevice(), surface, n, formats), "vkGetPhysicalDeviceSurfaceFormatsKHR");
        // UNORM: the tonemap pass applies the sRGB curve itself, as it does for offscreen output.
        for (VkSurfaceFormatKHR f : formats) {
            if (f.format() == VK_FORMAT_B8G8R8A8_UNORM || f.format() == VK_FORMAT_R8G8B8A8_UNORM) {
                return f.format();
            }
        }
        return formats.get(0).format();
    }

    private int choosePresentMode(MemoryStack stack) {
        if (vsync) {
            return VK_PRESENT_MODE_FIFO_KHR;
        }
        IntBuffer n = stack.mallocInt(1);
        check(vkGetPhysicalDeviceSurfacePresentModesKHR(gpu.physicalDevice(), surface, n, null), "vkGetPhysicalDeviceSurfacePresentModesKHR");
        IntBuffer modes = stack.mallocInt(n.get(0));
        check(vkGetPhysicalDeviceSurfacePresentModesKHR(gpu.physicalDevice(), surface, n, modes), "vkGetPhysicalDeviceSurfacePresentModesKHR");
        int best = VK_PRESENT_MODE_FIFO_KHR;
        for (int i = 0; i < modes.capacity(); i++) {
            if (modes.get(i) == VK_PRESENT_MODE_MAILBOX_KHR) {
                return VK_PRESENT_MODE_MAILBOX_KHR;
            }
            if (modes.get(i) == VK_PRESENT_MODE_IMMEDIATE_KHR) {
                best = VK_PRESENT_MODE_IMMEDIATE_KHR;
            }
        }
        return best;
    }

    /** The acquire semaphore of a frame slot (wait on it at the color-attachment stage). */
    public long acquireSemaphore(long frame) {
        return acquired[(int) (frame % acquired.length)];
    }

    /** Acquires the next image for {@code frame}; -1 when the swapchain must be recreated first. */
    public int acquire(long frame) {
        try (MemoryStack stack = stackPush()) {
            IntBuffer index = stack.mallocInt(1);
            long start = System.nanoTime();
            int r = gpu.acquireNextImage(swapchain, ACQUIRE_TIMEOUT_NS, acquireSemaphore(frame), index);   // may be an injected fault
            long blocked = System.nanoTime() - start;
            if (blocked > ACQUIRE_BLOCKED_NS) {
                // No image was free: the presentation engine (vsync) held the CPU back.
                acquireWaits++;
                acquireWaitNanos += blocked;
            }
            if (r == VK_ERROR_OUT_OF_DATE_KHR) {
                stale = true;
                return -1;
            }
            if (r == VK_TIMEOUT || r == VK_NOT_READY) {
                throw new VulkanException(r, "vkAcquireNextImageKHR (no image within 2 s)");
            }
            check(r, "vkAcquireNextImageKHR");
            if (r == VK_SUBOPTIMAL_KHR) {
                stale = true;
            }
            return index.get(0);
        }
    }

    /** Presents image {@code index} once its render-finished semaphore is signalled. */
    public void present(int index) {
        try (MemoryStack stack = stackPush()) {
            // Counts set explicitly: some LWJGL p* setters do not set the matching count field.
            VkPresentInfoKHR info = VkPresentInfoKHR.calloc(stack).sType$Default()
                    .pWaitSemaphores(stack.longs(renderFinished[index]))
                    .swapchainCount(1).pSwapchains(stack.longs(swapchain)).pImageIndices(stack.ints(index));
            int r = gpu.present(info);   // under the queue lock; may be an injected fault
            if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
                stale = true;
                return;
            }
            check(r, "vkQueuePresentKHR");
        }
    }

    public long renderFinished(int index) { return renderFinished[index]; }
    public GpuImage image(int index) { return images[index]; }
    public int width() { return width; }
    public int height() { return height; }
    public int format() { return format; }
    public boolean stale() { return stale; }
    public void markStale() { stale = true; }
    public long recreations() { return recreations; }
    public long acquireWaits() { return acquireWaits; }
    public double acquireWaitMicros() { return acquireWaitNanos / 1e3; }

    private void destroyImages() {
        for (GpuImage img : images) {
            img.close();
        }
        long[] sems = renderFinished.clone();
        gpu.defer(() -> {
            for (long s : sems) {
                vkDestroySemaphore(gpu.device(), s, null);
            }
        });
        images = new GpuImage[0];
        renderFinished = new long[0];
    }

    /**
     * Waits for Tally's frames, then for the queue to be idle: presents wait on renderFinished semaphores outside Tally's
     * timeline, and a driver may still release a frame's wait on its acquire semaphore after the frame's timeline signal
     * (lavapipe does), so only an idle queue says the semaphores destroyed next are free.
     */
    private void drainQueue(String why) {
        gpu.waitIdle();
        gpu.queueLock().lock();
        try {
            check(vkQueueWaitIdle(gpu.queue()), "vkQueueWaitIdle (" + why + ")");
        } finally {
            gpu.queueLock().unlock();
        }
    }

    @Override
    public void close() {
        drainQueue("swapchain close");
        destroyImages();
        gpu.waitIdle();   // runs the destructions destroyImages deferred
        if (swapchain != 0) {
            vkDestroySwapchainKHR(gpu.device(), swapchain, null);
            swapchain = 0;
        }
        for (long s : acquired) {
            vkDestroySemaphore(gpu.device(), s, null);
        }
    }
}

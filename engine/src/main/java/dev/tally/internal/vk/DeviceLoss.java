package dev.tally.internal.vk;

import org.lwjgl.vulkan.VkDevice;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.vulkan.VK10.VK_ERROR_DEVICE_LOST;
import static org.lwjgl.vulkan.VK10.vkDeviceWaitIdle;

/**
 * Whether the device was lost (real or injected) and where it was first seen. The first report is thrown
 * where it happens; from then on nothing is submitted and waits return at once, so that closing releases
 * everything without a second error.
 */
final class DeviceLoss {
    private final FaultInjector faults;
    private volatile boolean lost;
    private String where;
    private boolean drained;

    DeviceLoss(FaultInjector faults) {
        this.faults = faults;
    }

    boolean isLost() {
        return lost;
    }

    synchronized String where() {
        return where;
    }

    /** Remembers the first place the loss was seen. */
    synchronized void mark(String at) {
        if (!lost) {
            where = at;
            lost = true;
        }
    }

    /** Throws VK_ERROR_DEVICE_LOST for {@code what} when the device is lost: a lost device is never submitted to. */
    void refuseIfLost(String what) {
        if (lost) {
            // Submitting to a lost device is pointless (and may crash some drivers): fail at once.
            check(VK_ERROR_DEVICE_LOST, what + " (vkQueueSubmit2 not called: the device was lost at " + where() + ")");
        }
    }

    /**
     * After a loss, once: vkDeviceWaitIdle, which on a lost device returns (VK_ERROR_DEVICE_LOST) in
     * finite time, and after an injected loss lets earlier work really finish. Then every submission
     * counts as complete, so deferred destruction can run.
     */
    synchronized void drainOnce(VkDevice device) {
        if (!drained) {
            drained = true;
            faults.afterLoss(vkDeviceWaitIdle(device));   // VK_ERROR_DEVICE_LOST expected: nothing to do about it
        }
    }

    /** vkDeviceWaitIdle before closing; a loss (real or injected) is noted, not thrown: it was reported where it happened. */
    void waitIdleForClose(VkDevice device) {
        if (faults.afterLoss(vkDeviceWaitIdle(device)) == VK_ERROR_DEVICE_LOST) {
            mark("vkDeviceWaitIdle (closing)");
        }
    }
}

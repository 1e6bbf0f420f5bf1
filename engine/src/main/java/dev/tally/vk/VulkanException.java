package dev.tally.vk;

import dev.tally.internal.vk.VkCheck;

/** A Vulkan call failed; carries the VkResult and its symbolic name. */
public final class VulkanException extends RuntimeException {
    private final int result;

    public VulkanException(int result, String what) {
        super(what + " failed: " + VkCheck.resultName(result));
        this.result = result;
    }

    public VulkanException(String message) {
        super(message);
        this.result = 0;
    }

    /** The VkResult code, or 0 when the failure was not a VkResult. */
    public int result() {
        return result;
    }

    public boolean isDeviceLost() {
        return result == org.lwjgl.vulkan.VK10.VK_ERROR_DEVICE_LOST;
    }

    public boolean isOutOfMemory() {
        return result == org.lwjgl.vulkan.VK10.VK_ERROR_OUT_OF_DEVICE_MEMORY
                || result == org.lwjgl.vulkan.VK10.VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

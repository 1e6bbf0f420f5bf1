package dev.tally.vk;

import dev.tally.internal.vk.VkCheck;

/** A Vulkan call failed; carries the VkResult and its symbolic name. */
public final class VulkanException extends RuntimeException {
    /** The VkResult, or 0 when the failure was not a VkResult. */
    private final int result;

    /**
     * A call that returned an error.
     *
     * @param result the VkResult
     * @param what   the call that returned it, e.g. {@code vkQueueSubmit2}
     */
    public VulkanException(int result, String what) {
        super(what + " failed: " + VkCheck.resultName(result));
        this.result = result;
    }

    /**
     * A failure that is not a VkResult.
     *
     * @param message one line: what failed and what to do
     */
    public VulkanException(String message) {
        super(message);
        this.result = 0;
    }

    /**
     * Tally's one VkResult check, for the host's calls too: throws naming {@code what} and the result when
     * {@code result} is an error (a lost device says so first); returns success codes (VK_SUBOPTIMAL_KHR, ...).
     *
     * @param result the VkResult
     * @param what   the call that returned it
     * @return {@code result} when it is not an error
     */
    public static int check(int result, String what) {
        return VkCheck.check(result, what);
    }

    /** {@return the VkResult code, or 0 when the failure was not a VkResult} */
    public int result() {
        return result;
    }

    /** {@return whether the device was lost: nothing more reaches the GPU; close Tally, then the device} */
    public boolean isDeviceLost() {
        return result == org.lwjgl.vulkan.VK10.VK_ERROR_DEVICE_LOST;
    }

    /** {@return whether device or host memory ran out} */
    public boolean isOutOfMemory() {
        return result == org.lwjgl.vulkan.VK10.VK_ERROR_OUT_OF_DEVICE_MEMORY
                || result == org.lwjgl.vulkan.VK10.VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

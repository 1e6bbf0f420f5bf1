package dev.tally.graph;

import static org.lwjgl.vulkan.VK10.*;

/**
 * A 2D color image the graph creates or imports. Usage defaults to storage, sampled, attachment, transfer.
 *
 * @param width  texels, positive
 * @param height texels, positive
 * @param format VkFormat
 * @param usage  VkImageUsageFlags: what the graph may do with it (an imported image's must match its creation)
 */
public record ImageDesc(int width, int height, int format, int usage) {
    /** Storage, sampled, color attachment, transfer source and destination: any pass may use the image. */
    public static final int DEFAULT_USAGE = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT
            | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

    /**
     * Checks the extent.
     *
     * @param width  texels, positive
     * @param height texels, positive
     * @param format VkFormat
     * @param usage  VkImageUsageFlags
     * @throws IllegalArgumentException if the extent is not positive
     */
    public ImageDesc {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("image extent must be positive, got " + width + "x" + height);
        }
    }

    /**
     * {@return an image of {@link #DEFAULT_USAGE}}
     *
     * @param width  texels, positive
     * @param height texels, positive
     * @param format VkFormat
     */
    public static ImageDesc of(int width, int height, int format) {
        return new ImageDesc(width, height, format, DEFAULT_USAGE);
    }
}

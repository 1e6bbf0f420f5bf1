package dev.tally.graph;

import static org.lwjgl.vulkan.VK10.*;

/**
 * A buffer the graph creates (a transient, allocated and aliased by the graph). Usage defaults to
 * storage + transfer source/destination.
 *
 * @param size  bytes, positive
 * @param usage VkBufferUsageFlags
 */
public record BufferDesc(long size, int usage) {
    /** Storage, transfer source and transfer destination: what graph passes and readback captures need. */
    public static final int DEFAULT_USAGE = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

    /**
     * Checks the size.
     *
     * @param size  bytes, positive
     * @param usage VkBufferUsageFlags
     * @throws IllegalArgumentException if the size is not positive
     */
    public BufferDesc {
        if (size <= 0) {
            throw new IllegalArgumentException("buffer size must be positive, got " + size);
        }
    }

    /**
     * {@return a buffer of {@link #DEFAULT_USAGE}}
     *
     * @param size bytes, positive
     */
    public static BufferDesc of(long size) {
        return new BufferDesc(size, DEFAULT_USAGE);
    }
}

package dev.tally.graph;

import static org.lwjgl.vulkan.VK10.*;

/** A buffer the graph creates. Usage defaults to storage + transfer source/destination. */
public record BufferDesc(long size, int usage) {
    public static final int DEFAULT_USAGE = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

    public BufferDesc {
        if (size <= 0) {
            throw new IllegalArgumentException("buffer size must be positive, got " + size);
        }
    }

    public static BufferDesc of(long size) {
        return new BufferDesc(size, DEFAULT_USAGE);
    }
}

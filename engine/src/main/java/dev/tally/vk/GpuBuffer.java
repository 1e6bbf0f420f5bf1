package dev.tally.vk;

import java.nio.ByteBuffer;

/**
 * A Vulkan buffer Tally knows: one it made ({@code Tally.createBuffer}) or one of the caller's it wraps
 * ({@code Tally.wrapBuffer}). It keeps the buffer's last synchronization state for its whole life, so a
 * frame graph that imports it in a later frame starts from where the previous work left it. Closing it
 * defers the destruction of what Tally owns until the GPU is past every frame that used it.
 */
public interface GpuBuffer extends AutoCloseable {
    /** {@return the name given at creation, used in errors, labels and timings} */
    String name();

    /** {@return the VkBuffer handle} */
    long handle();

    /** {@return the size in bytes} */
    long size();

    /** {@return whether the buffer's memory is host-visible and persistently mapped} */
    boolean isMapped();

    /**
     * {@return the address of the persistently mapped memory}
     *
     * @throws IllegalStateException if the buffer is not host-visible
     */
    long mappedAddress();

    /**
     * Makes GPU writes visible to host reads on non-coherent memory (nothing to do on coherent memory).
     *
     * @param offset first byte
     * @param bytes  byte count
     */
    void invalidate(long offset, long bytes);

    /**
     * Makes host writes visible to the GPU on non-coherent memory (nothing to do on coherent memory).
     *
     * @param offset first byte
     * @param bytes  byte count
     */
    void flush(long offset, long bytes);

    /**
     * Copies {@code data} (position to limit) into a mapped buffer at {@code offset}, then flushes it.
     *
     * @param data   the bytes to copy
     * @param offset where they go in this buffer
     * @throws IllegalArgumentException if they do not fit
     */
    void write(ByteBuffer data, long offset);

    /** Destroys what Tally owns once the GPU is done with it; a wrapped buffer itself stays the caller's. */
    @Override
    void close();
}

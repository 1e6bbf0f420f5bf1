package dev.tally.internal.graph;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

/**
 * Everything the graph records or creates below itself: barriers, debug labels, dynamic rendering,
 * timestamps, buffer fills, transient poison, transient memory and the lanes' semaphore. Vulkan in the
 * product ({@link VulkanBackend}); a backend that only records the calls lets frames execute with no GPU.
 * Resource objects ({@code objects}, by resource id) are whatever the backend created for transients
 * and the caller imported.
 */
interface GraphBackend extends TopologyCache.Memory, AutoCloseable {
    /** The context passes record for (PassContext.vulkan()); null when there is no GPU. */
    VulkanContext context();

    /** The timeline value the GPU has reached: frames at or below it are finished. */
    long completedValue();

    /** True once the GPU has reached timeline value {@code value}; a backend that remembers its last poll answers without another. */
    default boolean reached(long value) {
        return completedValue() >= value;
    }

    /** Frames that may be in flight at once: how many sets of timestamps are kept. */
    int framesInFlight();

    /** The lanes async frames are planned for: a second queue when there is one, else split on one queue or not at all. */
    QueueLanes asyncLanes(boolean splitOnOneQueue);

    /**
     * The barriers at one point of the frame, in recording order: the first batch's prologue, then per pass
     * those before it (after its label begins) and after it (before its label ends), and at the end of the
     * last batch the join and the epilogue. Called at every point, with an empty list where none is needed;
     * {@code point} counts the frame's points from 0 (a frame of a known topology gives each point the list
     * it gave the same point before).
     */
    void barriers(VkCommandBuffer cmd, int point, List<BarrierSpec> specs, Object[] objects);

    void beginLabel(VkCommandBuffer cmd, String name);

    void endLabel(VkCommandBuffer cmd);

    /** Begins rendering pass {@code p}'s colour attachments over {@code width} x {@code height}. */
    void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, int width, int height);

    void endRendering(VkCommandBuffer cmd);

    /** Fills the whole of {@code buffer} (a TrackedBuffer) with {@code word}. */
    void fillBuffer(VkCommandBuffer cmd, Object buffer, int word);

    /** Debug: fills transient {@code object} (a TrackedBuffer or TrackedImage) with NaN, ordered after all earlier work. */
    void poison(VkCommandBuffer cmd, Object object);

    /** Timestamp queries available (0: the device cannot time). */
    int timestampCapacity();

    void resetTimestamps(VkCommandBuffer cmd, int first, int count);

    void writeTimestamp(VkCommandBuffer cmd, int query);

    /** Reads {@code count} timestamps from {@code first} without waiting; false when they are not all available. */
    boolean readTimestamps(int first, int count, long[] ticks);

    /** Records, after the queries were written, a copy of [first, first+count) into host memory for {@link #readCopiedTimestamps}. */
    void copyTimestamps(VkCommandBuffer cmd, int first, int count);

    /** Reads timestamps a completed frame copied ({@link #copyTimestamps}), with no driver call; false when not all were available. */
    boolean readCopiedTimestamps(int first, int count, long[] ticks);

    double nanos(long startTicks, long endTicks);

    /** A timeline semaphore for the lanes' batches, destroyed by {@link #destroyLaneSemaphore}. */
    long createLaneSemaphore();

    void destroyLaneSemaphore(long semaphore);

    /** Objects created for transients so far; flat in steady state. */
    long transientObjectsCreated();

    @Override
    void close();
}

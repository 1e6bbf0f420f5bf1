package dev.tally;

/**
 * Counters of a running Tally ({@code Tally.diagnostics()}), read in place: validation messages, live memory and
 * objects (to find leaks), and the times the CPU blocked on the GPU. {@link #liveAllocations()} and
 * {@link #liveAllocationBytes()} ask VMA for its statistics: for soak checks and reports, not every frame. Every
 * counter can be read after {@code Tally.close()}: the allocations are then those still live when it closed (on
 * Tally's own allocator, what was never closed, which it also reports as a validation error; on a host's allocator,
 * the host's allocations are counted too).
 */
public interface Diagnostics {
    /** {@return whether Tally turned the validation layer on ({@code validation.enabled} on a device Tally made; false for a wrapped host's device, whose layers are the host's)} */
    boolean validationEnabled();

    /**
     * {@return validation errors Tally's messenger received (none on a wrapped host's device: its layers report to the
     * host's messenger), and the errors Tally reports itself: objects and memory still live at {@code Tally.close}}
     */
    long validationErrors();

    /** {@return validation warnings Tally's messenger received} */
    long validationWarnings();

    /** {@return every validation message Tally's messenger received, of any severity it listens to, and Tally's own close-time reports} */
    long validationMessages();

    /** {@return live VMA allocations on Tally's allocator} */
    long liveAllocations();

    /** {@return the bytes of those allocations} */
    long liveAllocationBytes();

    /** {@return Vulkan objects Tally created so far (buffers, images, pipelines, ...)} */
    long objectsCreated();

    /** {@return the times a frame's begin blocked for a frame-in-flight slot (the CPU ran ahead of the GPU)} */
    long pacingWaits();

    /** {@return the microseconds those waits blocked} */
    double pacingWaitMicros();

    /** {@return every other time Tally blocked on the GPU: resizes, tools' waits, shutdown ({@code Device.waitIdle})} */
    long otherWaits();
}

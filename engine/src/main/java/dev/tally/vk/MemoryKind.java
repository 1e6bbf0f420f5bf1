package dev.tally.vk;

/** Where a buffer lives and how the host touches it. */
public enum MemoryKind {
    /** GPU-only; fastest for shaders; written by copies or shaders. */
    DEVICE,
    /**
     * Large GPU-read arrays filled by the host: mapped directly where device memory is host-visible
     * (CPU drivers, resizable BAR), otherwise filled through a staging copy.
     */
    DEVICE_FILLED,
    /** Host writes sequentially, GPU reads: staging and per-frame uploads. */
    UPLOAD,
    /** GPU writes, host reads: prefers HOST_CACHED memory, which is fast to read on the CPU. */
    READBACK
}

package dev.tally.readback;

/** Where a sample's completion time comes from. */
public enum TimeSource {
    /**
     * A GPU timestamp written after the slot's copy, mapped to the CPU clock ({@link System#nanoTime()})
     * by VK_KHR_calibrated_timestamps or VK_EXT_calibrated_timestamps.
     */
    CALIBRATED,
    /**
     * No calibrated clock (the extension missing, or the device lacks timestamps): the midpoint between the
     * last moment the ring saw the slot pending (its capture, or a frame's beginning) and the first frame
     * beginning that saw it complete. Off by at most half that interval, typically half a frame.
     */
    HOST_ESTIMATE;

    private final String id = name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');

    /** {@return the source as reports spell it ({@code calibrated}, {@code host-estimate})} */
    public String id() {
        return id;
    }
}

package dev.tally.internal.vk;

import java.util.List;

/**
 * How to create a {@link VulkanContext}. Defaults: headless, no validation, automatic device
 * choice, two frames in flight, no injected faults.
 *
 * @param instanceExtensions extra instance extensions (for a window: what GLFW asks for)
 * @param presentation       enable VK_KHR_swapchain on the device
 * @param faults             the fault the context injects, in the spelling of the debug key {@code debug.injectFault}
 *                           ({@code none} normally; see {@link #withFaults})
 */
public record ContextOptions(String appName, boolean validation, DeviceSelection device, int framesInFlight,
                             List<String> instanceExtensions, boolean presentation, String faults) {
    public ContextOptions {
        if (framesInFlight < 1 || framesInFlight > 8) {
            throw new IllegalArgumentException("framesInFlight must be in 1..8, got " + framesInFlight);
        }
        appName = appName == null ? "tally" : appName;
        device = device == null ? DeviceSelection.AUTO : device;
        instanceExtensions = List.copyOf(instanceExtensions == null ? List.of() : instanceExtensions);
        faults = FaultPlan.parse(faults == null ? "none" : faults).spec();   // IllegalArgumentException names the spellings
    }

    /** Without injected faults. */
    public ContextOptions(String appName, boolean validation, DeviceSelection device, int framesInFlight,
                          List<String> instanceExtensions, boolean presentation) {
        this(appName, validation, device, framesInFlight, instanceExtensions, presentation, "none");
    }

    public static ContextOptions headless() {
        return new ContextOptions("tally", false, DeviceSelection.resolve(null), 2, List.of(), false, "none");
    }

    public ContextOptions withValidation(boolean on) {
        return new ContextOptions(appName, on, device, framesInFlight, instanceExtensions, presentation, faults);
    }

    public ContextOptions withDevice(DeviceSelection d) {
        return new ContextOptions(appName, validation, d, framesInFlight, instanceExtensions, presentation, faults);
    }

    public ContextOptions withFramesInFlight(int n) {
        return new ContextOptions(appName, validation, device, n, instanceExtensions, presentation, faults);
    }

    public ContextOptions withPresentation(List<String> surfaceExtensions) {
        return new ContextOptions(appName, validation, device, framesInFlight, surfaceExtensions, true, faults);
    }

    /**
     * Debugging aid: make the context fail on purpose, to see how a program handles it. Spellings:
     * {@code none}, {@code device-lost@N} (the N-th queue submission and every later one fail with
     * VK_ERROR_DEVICE_LOST), {@code oom@N} (the N-th buffer allocation fails with
     * VK_ERROR_OUT_OF_DEVICE_MEMORY), {@code out-of-date@N} (every N-th swapchain acquire is out of date)
     * and {@code suboptimal@N} (every N-th present is suboptimal).
     *
     * @throws IllegalArgumentException for any other spelling, naming the accepted ones
     */
    public ContextOptions withFaults(String spec) {
        return new ContextOptions(appName, validation, device, framesInFlight, instanceExtensions, presentation, spec);
    }
}

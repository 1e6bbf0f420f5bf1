package dev.tally.vk;

import java.util.List;

/**
 * How to create a {@link VulkanContext}. Defaults: headless, no validation, automatic device
 * choice, two frames in flight, no injected faults.
 *
 * @param instanceExtensions extra instance extensions (for a window: what GLFW asks for)
 * @param presentation       enable VK_KHR_swapchain on the device
 * @param faults             test hook: the fault the context's {@link FaultInjector} injects ({@link FaultPlan#NONE} normally)
 */
public record ContextOptions(String appName, boolean validation, DeviceSelection device, int framesInFlight,
                             List<String> instanceExtensions, boolean presentation, FaultPlan faults) {
    public ContextOptions {
        if (framesInFlight < 1 || framesInFlight > 8) {
            throw new IllegalArgumentException("framesInFlight must be in 1..8, got " + framesInFlight);
        }
        appName = appName == null ? "tally" : appName;
        device = device == null ? DeviceSelection.AUTO : device;
        instanceExtensions = List.copyOf(instanceExtensions == null ? List.of() : instanceExtensions);
        faults = faults == null ? FaultPlan.NONE : faults;
    }

    /** Without injected faults. */
    public ContextOptions(String appName, boolean validation, DeviceSelection device, int framesInFlight,
                          List<String> instanceExtensions, boolean presentation) {
        this(appName, validation, device, framesInFlight, instanceExtensions, presentation, FaultPlan.NONE);
    }

    public static ContextOptions headless() {
        return new ContextOptions("tally", false, DeviceSelection.resolve(null), 2, List.of(), false, FaultPlan.NONE);
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

    /** Test hook: inject {@code plan} (see {@link FaultInjector}). */
    public ContextOptions withFaults(FaultPlan plan) {
        return new ContextOptions(appName, validation, device, framesInFlight, instanceExtensions, presentation, plan);
    }
}

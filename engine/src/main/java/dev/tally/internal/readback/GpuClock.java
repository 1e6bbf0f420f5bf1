package dev.tally.internal.readback;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VKCapabilitiesDevice;
import org.lwjgl.vulkan.VKCapabilitiesInstance;
import org.lwjgl.vulkan.VkCalibratedTimestampInfoKHR;

import java.nio.IntBuffer;
import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.vkGetCalibratedTimestampsEXT;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.vkGetPhysicalDeviceCalibrateableTimeDomainsEXT;
import static org.lwjgl.vulkan.KHRCalibratedTimestamps.*;

/**
 * Maps GPU timestamps to {@link System#nanoTime()} (CLOCK_MONOTONIC on Linux) with the calibrated
 * timestamps extension, when the device enabled it and offers both the device and the monotonic domain.
 * The pairing is refreshed every {@link #RECALIBRATE_NANOS}, as the two clocks drift apart.
 */
final class GpuClock {
    static final long RECALIBRATE_NANOS = 250_000_000L;

    private final VulkanContext ctx;
    private final boolean khr;
    private final boolean available;
    private final double nanosPerTick;
    private final long tickMask;
    private long gpuTicks;
    private long cpuNanos;
    private long calibratedAt;
    private long calibrations;

    GpuClock(VulkanContext ctx) {
        this.ctx = ctx;
        VKCapabilitiesDevice caps = ctx.device().getCapabilities();
        this.khr = caps.vkGetCalibratedTimestampsKHR != NULL;
        boolean ext = caps.vkGetCalibratedTimestampsEXT != NULL;
        this.nanosPerTick = ctx.info().timestampPeriod();
        int bits = ctx.info().timestampValidBits();
        this.tickMask = bits >= 64 ? -1L : (1L << bits) - 1;
        this.available = bits > 0 && (khr || ext) && offersMonotonic(ctx, khr);
    }

    private static boolean offersMonotonic(VulkanContext ctx, boolean khr) {
        VKCapabilitiesInstance caps = ctx.physicalDevice().getCapabilities();
        long query = khr ? caps.vkGetPhysicalDeviceCalibrateableTimeDomainsKHR : caps.vkGetPhysicalDeviceCalibrateableTimeDomainsEXT;
        if (query == NULL) {
            return false;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            check(khr ? vkGetPhysicalDeviceCalibrateableTimeDomainsKHR(ctx.physicalDevice(), count, null)
                    : vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(ctx.physicalDevice(), count, null), "vkGetPhysicalDeviceCalibrateableTimeDomains");
            IntBuffer domains = stack.mallocInt(count.get(0));
            check(khr ? vkGetPhysicalDeviceCalibrateableTimeDomainsKHR(ctx.physicalDevice(), count, domains)
                    : vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(ctx.physicalDevice(), count, domains), "vkGetPhysicalDeviceCalibrateableTimeDomains");
            boolean device = false, monotonic = false;
            for (int i = 0; i < count.get(0); i++) {
                device |= domains.get(i) == VK_TIME_DOMAIN_DEVICE_KHR;
                monotonic |= domains.get(i) == VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR;
            }
            // System.nanoTime() reads CLOCK_MONOTONIC on Linux; elsewhere the monotonic domain is absent.
            return device && monotonic && System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux");
        }
    }

    /** Calibrations made so far (the first on the first conversion). */
    long calibrations() {
        return calibrations;
    }

    /** True when GPU timestamps can be put on the CPU clock. */
    boolean available() {
        return available;
    }

    /** The {@link System#nanoTime()} at which the GPU clock read {@code ticks}; {@code now} is the current nanoTime. */
    long cpuNanos(long ticks, long now) {
        if (calibrations == 0 || now - calibratedAt > RECALIBRATE_NANOS) {
            calibrate(now);
        }
        long delta = (ticks & tickMask) - gpuTicks;
        return cpuNanos + Math.round(delta * nanosPerTick);
    }

    private void calibrate(long now) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            // By address: struct and buffer wrappers at every recalibration would be garbage on the frame path.
            long info = stack.ncalloc(VkCalibratedTimestampInfoKHR.ALIGNOF, 2, VkCalibratedTimestampInfoKHR.SIZEOF);
            long second = info + VkCalibratedTimestampInfoKHR.SIZEOF;
            VkCalibratedTimestampInfoKHR.nsType(info, VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_KHR);
            VkCalibratedTimestampInfoKHR.ntimeDomain(info, VK_TIME_DOMAIN_DEVICE_KHR);
            VkCalibratedTimestampInfoKHR.nsType(second, VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_KHR);
            VkCalibratedTimestampInfoKHR.ntimeDomain(second, VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR);
            long stamps = stack.nmalloc(8, 16);
            long deviation = stack.nmalloc(8, 8);
            // The EXT and KHR structures and values are the same; only the entry point's name differs.
            check(khr ? nvkGetCalibratedTimestampsKHR(ctx.device(), 2, info, stamps, deviation)
                    : org.lwjgl.vulkan.EXTCalibratedTimestamps.nvkGetCalibratedTimestampsEXT(ctx.device(), 2, info, stamps, deviation),
                    "vkGetCalibratedTimestamps");
            gpuTicks = MemoryUtil.memGetLong(stamps) & tickMask;
            cpuNanos = MemoryUtil.memGetLong(stamps + 8);
            calibratedAt = now;
            calibrations++;
        }
    }
}

package dev.tally.internal.vk;

/**
 * What Tally needs to know about the chosen device, read once at start-up.
 *
 * @param subgroupComputeOps the subgroup operations (VK_SUBGROUP_FEATURE_*_BIT) compute shaders may use; 0 when the
 *                          compute stage has none
 * @param smCount           streaming multiprocessors / compute units when the vendor exposes them, else 0
 * @param denormPreserve32  the device promises to keep f32 subnormals (else it may flush them)
 * @param maxComputeWorkGroupCountY the most workgroups a dispatch may have in y (maxComputeWorkGroupCount[1])
 */
public record DeviceInfo(int index, String name, String type, int vendorId, String driverName, String driverInfo,
                         String apiVersion, int subgroupSize, int subgroupComputeOps,
                         long maxStorageBufferRange, int maxComputeWorkGroupInvocations, int maxComputeWorkGroupCount,
                         long minStorageBufferOffsetAlignment, float timestampPeriod, int timestampValidBits,
                         int smCount, boolean denormPreserve32, boolean denormFlush32, long deviceLocalBytes, int maxComputeWorkGroupCountY) {

    /** Whether compute shaders may use every subgroup operation in {@code ops} (VK_SUBGROUP_FEATURE_*_BIT). */
    public boolean subgroupComputeSupports(int ops) {
        return (subgroupComputeOps & ops) == ops;
    }

    public boolean subgroupArithmetic() {
        return subgroupComputeSupports(org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
    }

    public boolean isCpu() {
        return type.equals("cpu");
    }

    public String describe() {
        return String.format(
                "device %d: %s (%s)%n  driver: %s %s%n  vulkan: %s%n  subgroup size: %d (arithmetic %s)%n"
                        + "  maxStorageBufferRange: %d bytes%n  maxComputeWorkGroupInvocations: %d%n"
                        + "  maxComputeWorkGroupCount[0]: %d%n  minStorageBufferOffsetAlignment: %d%n"
                        + "  timestampPeriod: %.3f ns (%d valid bits)%n  SM/CU count: %s%n"
                        + "  f32 subnormals: %s%n  device-local memory: %d MiB",
                index, name, type, driverName, driverInfo, apiVersion, subgroupSize, subgroupArithmetic() ? "yes" : "no",
                maxStorageBufferRange, maxComputeWorkGroupInvocations, maxComputeWorkGroupCount,
                minStorageBufferOffsetAlignment, timestampPeriod, timestampValidBits,
                smCount > 0 ? Integer.toString(smCount) : "not exposed",
                denormPreserve32 ? "preserved" : denormFlush32 ? "may be flushed" : "unspecified",
                deviceLocalBytes >> 20);
    }
}

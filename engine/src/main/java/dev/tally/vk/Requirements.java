package dev.tally.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceDynamicRenderingFeatures;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkQueueFamilyProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceHostQueryResetFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceMaintenance4Features;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceSynchronization2Features;
import org.lwjgl.vulkan.VkPhysicalDeviceTimelineSemaphoreFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan12Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan13Features;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_COMPUTE_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_GRAPHICS_BIT;
import static org.lwjgl.vulkan.VK10.vkGetPhysicalDeviceProperties;
import static org.lwjgl.vulkan.VK10.vkGetPhysicalDeviceQueueFamilyProperties;
import static org.lwjgl.vulkan.VK10.VK_API_VERSION_MAJOR;
import static org.lwjgl.vulkan.VK10.VK_API_VERSION_MINOR;
import static org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
import static org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
import static org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
import static org.lwjgl.vulkan.VK13.*;

/**
 * What Tally needs of a device, by part, and the check {@code Tally.wrap} makes of what a host enabled.
 * Vulkan cannot be asked which features a device was created with, so a host either merges these into
 * its own {@code vkCreateDevice} chain ({@link #enableIn}) or says what it enabled ({@link HostFeatures}),
 * and Tally refuses what lacks something with one line naming the feature and the struct that enables it.
 */
public final class Requirements {
    /** The Vulkan version the instance, the physical device and the LWJGL {@code VkDevice} must offer. */
    public static final int API_VERSION = VK_API_VERSION_1_3;

    /** The parts of Tally a host may use; each needs its own features. */
    public enum Part {
        /** Frames, the frame graph and the reduction node (every Tally builds its reducer). */
        GRAPH("graph"),
        /** Auto-exposure: the histogram and exposure passes (compute, on top of the graph's needs). */
        AUTO_EXPOSURE("auto-exposure"),
        /** Readback rings. */
        READBACK("readback"),
        /** The graphics paths: the tonemap and HUD passes. */
        GRAPHICS("graphics");

        private final String id;

        Part(String id) {
            this.id = id;
        }

        /** {@return the part as the README's requirements table and Tally's messages name it} */
        public String id() {
            return id;
        }
    }

    /**
     * One device feature: its member name, the Vulkan 1.2/1.3 struct that holds it (and the stand-alone
     * struct of the extension it came from, which a host chain may carry instead), and why Tally needs it.
     *
     * @param part             the part that needs it
     * @param name             the struct member, e.g. {@code synchronization2}
     * @param struct           the core struct that holds it, e.g. {@code VkPhysicalDeviceVulkan13Features}
     * @param sType            that struct's VkStructureType
     * @param offset           the member's byte offset in it
     * @param standaloneStruct the extension's own struct, e.g. {@code VkPhysicalDeviceSynchronization2Features}
     * @param standaloneSType  that struct's VkStructureType
     * @param standaloneOffset the member's byte offset in it
     * @param why              what Tally uses it for, as messages say
     */
    public record Feature(Part part, String name, String struct, int sType, int offset, String standaloneStruct, int standaloneSType,
                          int standaloneOffset, String why) {
    }

    /**
     * A device extension; {@code required} false: Tally uses it where enabled and says what it does without it.
     *
     * @param part     the part that uses it
     * @param name     the extension's name
     * @param required whether Tally refuses a device without it
     * @param why      what it gives, and what happens without it
     */
    public record Extension(Part part, String name, boolean required, String why) {
    }

    private static final List<Feature> FEATURES = List.of(
            new Feature(Part.GRAPH, "timelineSemaphore", "VkPhysicalDeviceVulkan12Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                    VkPhysicalDeviceVulkan12Features.TIMELINESEMAPHORE, "VkPhysicalDeviceTimelineSemaphoreFeatures",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, VkPhysicalDeviceTimelineSemaphoreFeatures.TIMELINESEMAPHORE,
                    "Tally's timeline: frame completion, deferred destruction, readback"),
            new Feature(Part.GRAPH, "synchronization2", "VkPhysicalDeviceVulkan13Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                    VkPhysicalDeviceVulkan13Features.SYNCHRONIZATION2, "VkPhysicalDeviceSynchronization2Features",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, VkPhysicalDeviceSynchronization2Features.SYNCHRONIZATION2,
                    "the graph's barriers (vkCmdPipelineBarrier2)"),
            new Feature(Part.GRAPH, "maintenance4", "VkPhysicalDeviceVulkan13Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                    VkPhysicalDeviceVulkan13Features.MAINTENANCE4, "VkPhysicalDeviceMaintenance4Features",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, VkPhysicalDeviceMaintenance4Features.MAINTENANCE4,
                    "the reduction's workgroup size from a specialization constant (LocalSizeId)"),
            new Feature(Part.GRAPHICS, "dynamicRendering", "VkPhysicalDeviceVulkan13Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                    VkPhysicalDeviceVulkan13Features.DYNAMICRENDERING, "VkPhysicalDeviceDynamicRenderingFeatures",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, VkPhysicalDeviceDynamicRenderingFeatures.DYNAMICRENDERING,
                    "graphics passes (vkCmdBeginRendering)"),
            new Feature(Part.GRAPHICS, "shaderDemoteToHelperInvocation", "VkPhysicalDeviceVulkan13Features",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, VkPhysicalDeviceVulkan13Features.SHADERDEMOTETOHELPERINVOCATION,
                    "VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
                    VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures.SHADERDEMOTETOHELPERINVOCATION,
                    "the HUD's fragment shader (discard is OpDemoteToHelperInvocation in SPIR-V 1.6)"));

    /** Features Tally uses where the device was created with them, and does without otherwise (never refused). */
    private static final List<Feature> OPTIONAL_FEATURES = List.of(
            new Feature(Part.GRAPH, "hostQueryReset", "VkPhysicalDeviceVulkan12Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                    VkPhysicalDeviceVulkan12Features.HOSTQUERYRESET, "VkPhysicalDeviceHostQueryResetFeatures",
                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, VkPhysicalDeviceHostQueryResetFeatures.HOSTQUERYRESET,
                    "timestamp queries reset from the host (vkResetQueryPool) rather than by a command inside the frame, which on an H200"
                            + " holds the readback ring's copies about 3 us; without it they are reset by vkCmdResetQueryPool"));

    private static final List<Extension> EXTENSIONS = List.of(
            new Extension(Part.READBACK, "VK_EXT_calibrated_timestamps", false,
                    "sample ages from GPU timestamps (or VK_KHR_calibrated_timestamps); without it ages are host estimates"));

    private static final Requirements ALL = new Requirements();

    private Requirements() {
    }

    /** {@return Tally's requirements (immutable)} */
    public static Requirements get() {
        return ALL;
    }

    /** {@return {@link #API_VERSION}} */
    public int apiVersion() {
        return API_VERSION;
    }

    /** {@return every feature Tally may need, in table order} */
    public List<Feature> features() {
        return FEATURES;
    }

    /** {@return the features Tally uses where a device has them enabled and does without otherwise: never refused, never enabled by {@link #enableIn}} */
    public List<Feature> optionalFeatures() {
        return OPTIONAL_FEATURES;
    }

    /**
     * {@return the features they need, in table order}
     *
     * @param parts the parts the host uses
     */
    public List<Feature> features(Set<Part> parts) {
        List<Feature> out = new ArrayList<>();
        for (Feature f : FEATURES) {
            if (parts.contains(f.part())) {
                out.add(f);
            }
        }
        return out;
    }

    /** {@return the device extensions Tally uses (none required)} */
    public List<Extension> extensions() {
        return EXTENSIONS;
    }

    /** {@return every part: what a host that uses all of Tally enables (a new mutable set)} */
    public static Set<Part> allParts() {
        return EnumSet.allOf(Part.class);
    }

    /**
     * Sets Tally's features for {@code parts} in a host's {@code vkCreateDevice} chain that starts at
     * {@code chain}: in the stand-alone struct of a feature where the chain carries one, else in its
     * VkPhysicalDeviceVulkan12Features/13Features, which is appended (allocated on {@code stack}) when the
     * chain has none. The host's own settings stay.
     *
     * @param chain the host's VkPhysicalDeviceFeatures2, the head of its vkCreateDevice pNext chain
     * @param stack where appended structs are allocated; it must outlive vkCreateDevice
     * @param parts the parts the host uses
     */
    public void enableIn(VkPhysicalDeviceFeatures2 chain, MemoryStack stack, Set<Part> parts) {
        for (Feature f : features(parts)) {
            long standalone = find(chain.address(), f.standaloneSType());
            if (standalone != NULL) {
                MemoryUtil.memPutInt(standalone + f.standaloneOffset(), 1);
                continue;
            }
            long struct = find(chain.address(), f.sType());
            if (struct == NULL) {
                int size = f.sType() == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
                        ? VkPhysicalDeviceVulkan12Features.SIZEOF : VkPhysicalDeviceVulkan13Features.SIZEOF;
                struct = stack.ncalloc(8, 1, size);
                MemoryUtil.memPutInt(struct, f.sType());
                long last = chain.address();
                while (MemoryUtil.memGetAddress(last + 8) != NULL) {
                    last = MemoryUtil.memGetAddress(last + 8);
                }
                MemoryUtil.memPutAddress(last + 8, struct);   // by address: LWJGL's typed pNext setters prepend
            }
            MemoryUtil.memPutInt(struct + f.offset(), 1);
        }
    }

    /** The first struct of type {@code sType} in the chain starting at {@code struct} (itself included), or NULL. */
    static long find(long struct, int sType) {
        for (long s = struct; s != NULL; s = MemoryUtil.memGetAddress(s + 8)) {
            if (MemoryUtil.memGetInt(s) == sType) {
                return s;
            }
        }
        return NULL;
    }

    /**
     * Refuses a host device that lacks what {@code parts} need: one line naming each missing feature and
     * the struct to set it in. {@code where} names the call (e.g. "Tally.wrap").
     *
     * @param where   the call, for the message
     * @param device  the host's device, checked for Vulkan 1.3
     * @param enabled what the device was created with
     * @param parts   the parts the host uses
     * @throws IllegalArgumentException naming each missing feature and the struct to enable it in, or the Vulkan version
     */
    public void check(String where, VkDevice device, HostFeatures enabled, Set<Part> parts) {
        checkApiVersion(where, device);
        StringBuilder missing = new StringBuilder();
        for (Feature f : features(parts)) {
            if (!enabled.features().contains(f.name())) {
                missing.append(missing.length() == 0 ? "" : ", ").append(f.name()).append(" (").append(f.struct()).append('.').append(f.name())
                        .append(" = VK_TRUE, or ").append(f.standaloneStruct()).append("; for ").append(f.why()).append(')');
            }
        }
        if (missing.length() > 0) {
            String seen = enabled.features().isEmpty() ? " (the HostFeatures given list no features at all: was the create info's"
                    + " pNext chain cut, e.g. by LWJGL's typed pNext(struct) setter?)" : "";
            throw new IllegalArgumentException(where + ": the device was created without " + missing + seen
                    + "; enable it in the vkCreateDevice pNext chain (Tally.requirements().enableIn merges Tally's features into yours)"
                    + " and pass what the device was created with as dev.tally.vk.HostFeatures.of(createInfo)");
        }
    }

    /**
     * Refuses a queue family that does not exist on the device or lacks graphics or compute (Tally records both on the one queue).
     *
     * @param where          the call, for the message
     * @param physicalDevice the host's physical device
     * @param family         the family of the queue handed to Tally
     * @throws IllegalArgumentException naming the family and what it lacks
     */
    public void checkQueue(String where, VkPhysicalDevice physicalDevice, int family) {
        try (MemoryStack stack = stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, count, null);
            if (family < 0 || family >= count.get(0)) {
                throw new IllegalArgumentException(where + ": queue family " + family + " does not exist (the device has " + count.get(0)
                        + "); pass the family index the queue was created from");
            }
            VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, count, families);
            int flags = families.get(family).queueFlags();
            if ((flags & VK_QUEUE_GRAPHICS_BIT) == 0 || (flags & VK_QUEUE_COMPUTE_BIT) == 0) {
                throw new IllegalArgumentException(where + ": queue family " + family + " lacks " + ((flags & VK_QUEUE_GRAPHICS_BIT) == 0
                        ? "VK_QUEUE_GRAPHICS_BIT" : "VK_QUEUE_COMPUTE_BIT") + "; hand Tally a queue of a family with graphics and compute");
            }
        }
    }

    /** The physical device offers 1.3 and the LWJGL VkDevice was made for 1.3 (else its 1.2/1.3 commands are null). */
    private static void checkApiVersion(String where, VkDevice device) {
        int offered;
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceProperties props = VkPhysicalDeviceProperties.malloc(stack);
            vkGetPhysicalDeviceProperties(device.getPhysicalDevice(), props);
            offered = props.apiVersion();
        }
        if (below13(offered)) {
            throw new IllegalArgumentException(where + ": the physical device offers Vulkan " + version(offered)
                    + "; Tally needs Vulkan 1.3 (synchronization2, timeline semaphores): choose a 1.3 device or update its driver");
        }
        int made = device.getCapabilities().apiVersion;
        if (below13(made) || !device.getCapabilities().Vulkan13) {
            throw new IllegalArgumentException(where + ": the VkDevice was made for Vulkan " + version(made)
                    + " (LWJGL loads no 1.2/1.3 commands for it); Tally needs Vulkan 1.3: create the instance with apiVersion"
                    + " VK_API_VERSION_1_3 and the VkDevice with new VkDevice(handle, physicalDevice, createInfo, VK_API_VERSION_1_3)");
        }
    }

    private static boolean below13(int v) {
        return VK_API_VERSION_MAJOR(v) < 1 || VK_API_VERSION_MAJOR(v) == 1 && VK_API_VERSION_MINOR(v) < 3;
    }

    static String version(int v) {
        return VK_API_VERSION_MAJOR(v) + "." + VK_API_VERSION_MINOR(v);
    }
}

package dev.tally.internal.vk;

import dev.tally.vk.VulkanException;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.vulkan.AMDShaderCoreProperties.VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME;
import static org.lwjgl.vulkan.NVShaderSmBuiltins.VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.*;
import static org.lwjgl.vulkan.VK13.VK_API_VERSION_1_3;

/** Enumerates physical devices, describes them and picks one. */
public final class PhysicalDevices {
    record Choice(VkPhysicalDevice device, DeviceInfo info, int queueFamily, Set<String> extensions) {
    }

    private PhysicalDevices() {
    }

    /** Rank for automatic choice: discrete > integrated > virtual > CPU > other. */
    static int rank(int type) {
        return switch (type) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> 4;
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> 3;
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> 2;
            case VK_PHYSICAL_DEVICE_TYPE_CPU -> 1;
            default -> 0;
        };
    }

    static String typeName(int type) {
        return switch (type) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> "discrete";
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> "integrated";
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> "virtual";
            case VK_PHYSICAL_DEVICE_TYPE_CPU -> "cpu";
            default -> "other";
        };
    }

    static Choice choose(VkInstance instance, DeviceSelection selection, MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        check(vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
        if (count.get(0) == 0) {
            throw new VulkanException("no Vulkan device found (install mesa-vulkan-drivers for a CPU device, or a GPU driver)");
        }
        PointerBuffer handles = stack.mallocPointer(count.get(0));
        check(vkEnumeratePhysicalDevices(instance, count, handles), "vkEnumeratePhysicalDevices");
        List<Choice> usable = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < handles.capacity(); i++) {
            VkPhysicalDevice pd = new VkPhysicalDevice(handles.get(i), instance);
            Choice c = describe(pd, i);
            names.add(i + ": " + c.info().name());
            if (c != null && c.queueFamily() >= 0) {
                usable.add(c);
            }
        }
        if (!selection.isAuto()) {
            int index = selection.index();
            for (Choice c : usable) {
                if (index >= 0 ? c.info().index() == index
                        : c.info().name().toLowerCase().contains(selection.spec().toLowerCase())) {
                    return c;
                }
            }
            throw new VulkanException("device '" + selection.spec() + "' (from --device, config device.select or "
                    + DeviceSelection.ENV + ") matches no usable Vulkan 1.3 device; devices: " + String.join(", ", names));
        }
        return usable.stream()
                .max((a, b) -> Integer.compare(rank(typeCode(a.info().type())), rank(typeCode(b.info().type()))))
                .orElseThrow(() -> new VulkanException("no device supports Vulkan 1.3 with a graphics+compute queue; devices: "
                        + String.join(", ", names)));
    }

    private static int typeCode(String type) {
        return switch (type) {
            case "discrete" -> VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
            case "integrated" -> VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
            case "virtual" -> VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
            case "cpu" -> VK_PHYSICAL_DEVICE_TYPE_CPU;
            default -> VK_PHYSICAL_DEVICE_TYPE_OTHER;
        };
    }

    /** Reads everything Tally uses about {@code pd}; queueFamily is -1 when the device cannot serve. */
    static Choice describe(VkPhysicalDevice pd, int index) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            Set<String> extensions = deviceExtensions(pd, stack);
            VkPhysicalDeviceSubgroupProperties subgroup = VkPhysicalDeviceSubgroupProperties.calloc(stack).sType$Default();
            VkPhysicalDeviceFloatControlsProperties floats = VkPhysicalDeviceFloatControlsProperties.calloc(stack).sType$Default();
            VkPhysicalDeviceDriverProperties driver = VkPhysicalDeviceDriverProperties.calloc(stack).sType$Default();
            VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = VkPhysicalDeviceShaderSMBuiltinsPropertiesNV.calloc(stack).sType$Default();
            VkPhysicalDeviceShaderCorePropertiesAMD amd = VkPhysicalDeviceShaderCorePropertiesAMD.calloc(stack).sType$Default();
            VkPhysicalDeviceProperties2 props = VkPhysicalDeviceProperties2.calloc(stack).sType$Default();
            long chain = 0;
            if (extensions.contains(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
                sm.pNext(chain);
                chain = sm.address();
            }
            if (extensions.contains(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
                amd.pNext(chain);
                chain = amd.address();
            }
            driver.pNext(chain);
            floats.pNext(driver.address());
            subgroup.pNext(floats.address());
            props.pNext(subgroup.address());
            vkGetPhysicalDeviceProperties2(pd, props);
            VkPhysicalDeviceProperties p = props.properties();
            VkPhysicalDeviceLimits limits = p.limits();

            int smCount = 0;
            if (extensions.contains(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
                smCount = sm.shaderSMCount();
            } else if (extensions.contains(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
                smCount = amd.shaderEngineCount() * amd.shaderArraysPerEngineCount() * amd.computeUnitsPerShaderArray();
            }

            int family = -1;
            int timestampBits = 0;
            IntBuffer qCount = stack.mallocInt(1);
            vkGetPhysicalDeviceQueueFamilyProperties(pd, qCount, null);
            VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(qCount.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(pd, qCount, families);
            int wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            for (int i = 0; i < families.capacity(); i++) {
                if ((families.get(i).queueFlags() & wanted) == wanted) {
                    family = i;
                    timestampBits = families.get(i).timestampValidBits();
                    break;
                }
            }
            if (VK_VERSION_MAJOR(p.apiVersion()) == 1 && VK_VERSION_MINOR(p.apiVersion()) < 3) {
                family = -1;
            }

            VkPhysicalDeviceMemoryProperties memory = VkPhysicalDeviceMemoryProperties.malloc(stack);
            vkGetPhysicalDeviceMemoryProperties(pd, memory);
            long deviceLocal = 0;
            for (int h = 0; h < memory.memoryHeapCount(); h++) {
                if ((memory.memoryHeaps(h).flags() & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0) {
                    deviceLocal = Math.max(deviceLocal, memory.memoryHeaps(h).size());
                }
            }
            int computeOps = (subgroup.supportedStages() & VK_SHADER_STAGE_COMPUTE_BIT) != 0 ? subgroup.supportedOperations() : 0;
            String api = VK_VERSION_MAJOR(p.apiVersion()) + "." + VK_VERSION_MINOR(p.apiVersion()) + "." + VK_VERSION_PATCH(p.apiVersion());
            DeviceInfo info = new DeviceInfo(index, p.deviceNameString(), typeName(p.deviceType()), p.vendorID(),
                    driver.driverNameString(), driver.driverInfoString(), api, subgroup.subgroupSize(), computeOps,
                    Integer.toUnsignedLong(limits.maxStorageBufferRange()), limits.maxComputeWorkGroupInvocations(),
                    intLimit(limits.maxComputeWorkGroupCount(0)), limits.minStorageBufferOffsetAlignment(), limits.timestampPeriod(),
                    timestampBits, smCount, floats.shaderDenormPreserveFloat32(), floats.shaderDenormFlushToZeroFloat32(),
                    deviceLocal, intLimit(limits.maxComputeWorkGroupCount(1)));
            return new Choice(pd, info, family, extensions);
        }
    }

    /** A uint32 limit as an int: one past Integer.MAX_VALUE (a driver may report 0xFFFFFFFF) reads as Integer.MAX_VALUE, not negative. */
    static int intLimit(int unsigned) {
        return (int) Math.min(Integer.MAX_VALUE, Integer.toUnsignedLong(unsigned));
    }

    private static Set<String> deviceExtensions(VkPhysicalDevice pd, MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        check(vkEnumerateDeviceExtensionProperties(pd, (String) null, count, null), "vkEnumerateDeviceExtensionProperties");
        VkExtensionProperties.Buffer props = VkExtensionProperties.malloc(count.get(0), stack);
        check(vkEnumerateDeviceExtensionProperties(pd, (String) null, count, props), "vkEnumerateDeviceExtensionProperties");
        Set<String> names = new HashSet<>();
        props.forEach(e -> names.add(e.extensionNameString()));
        return names;
    }

    /** Every device with its description, for {@code ./tally info}. */
    public static List<DeviceInfo> list(VkInstance instance) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            check(vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
            PointerBuffer handles = stack.mallocPointer(count.get(0));
            check(vkEnumeratePhysicalDevices(instance, count, handles), "vkEnumeratePhysicalDevices");
            List<DeviceInfo> out = new ArrayList<>();
            for (int i = 0; i < handles.capacity(); i++) {
                out.add(describe(new VkPhysicalDevice(handles.get(i), instance), i).info());
            }
            return out;
        }
    }
}

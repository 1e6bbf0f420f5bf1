package dev.tally.internal.vk;

import dev.tally.vk.HostFeatures;

import dev.tally.vk.VulkanException;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

import java.util.ArrayList;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.util.vma.Vma.vmaCreateAllocator;
import static org.lwjgl.vulkan.KHRSwapchain.VK_KHR_SWAPCHAIN_EXTENSION_NAME;
import static org.lwjgl.vulkan.NVShaderSmBuiltins.VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.vkCreateDevice;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;
import static org.lwjgl.vulkan.VK13.VK_API_VERSION_1_3;

/** Which features and extensions Tally's own device enables, and the VMA allocator on it. */
final class DeviceCreation {
    private DeviceCreation() {
    }

    /** A device Tally made, with what it was created with (read while the create info is still on the stack). */
    record Created(VkDevice device, HostFeatures enabled) {
    }

    static Created createDevice(MemoryStack stack, PhysicalDevices.Choice choice, int[] async, ContextOptions options) {
        VkPhysicalDevice physicalDevice = choice.device();
        VkPhysicalDeviceVulkan13Features supported13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default();
        VkPhysicalDeviceVulkan12Features supported12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default();
        VkPhysicalDeviceFeatures2 supported = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default();
        // Chain by address: LWJGL's typed pNext setters prepend and would drop the rest of the chain.
        supported.pNext(supported12.address());
        supported12.pNext(supported13.address());
        vkGetPhysicalDeviceFeatures2(physicalDevice, supported);
        String name = choice.info().name();
        requireFeature(supported13.synchronization2(), "synchronization2", name);
        requireFeature(supported13.dynamicRendering(), "dynamicRendering", name);
        requireFeature(supported12.timelineSemaphore(), "timelineSemaphore", name);

        VkPhysicalDeviceVulkan13Features enable13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default()
                .synchronization2(true).dynamicRendering(true).maintenance4(supported13.maintenance4())
                // SPIR-V 1.6 compiles GLSL discard to OpDemoteToHelperInvocation.
                .shaderDemoteToHelperInvocation(supported13.shaderDemoteToHelperInvocation())
                .subgroupSizeControl(supported13.subgroupSizeControl())
                .computeFullSubgroups(supported13.computeFullSubgroups());
        VkPhysicalDeviceVulkan12Features enable12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default()
                .timelineSemaphore(true).hostQueryReset(supported12.hostQueryReset())
                .shaderFloat16(supported12.shaderFloat16()).storageBuffer8BitAccess(supported12.storageBuffer8BitAccess());
        VkPhysicalDeviceFeatures2 enable = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default();
        enable.features().shaderInt64(supported.features().shaderInt64())
                .fragmentStoresAndAtomics(supported.features().fragmentStoresAndAtomics());
        enable.pNext(enable12.address());
        enable12.pNext(enable13.address());

        List<String> deviceExtensions = new ArrayList<>();
        if (options.presentation()) {
            deviceExtensions.add(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
        }
        if (choice.extensions().contains(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
            deviceExtensions.add(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
        }
        // Readback rings put GPU completion times on the CPU clock with it, where offered.
        // The EXT first: the same entry points, and validation layers older than the KHR promotion (Debian's 1.3.239)
        // warn about an extension they do not know.
        if (choice.extensions().contains("VK_EXT_calibrated_timestamps")) {
            deviceExtensions.add("VK_EXT_calibrated_timestamps");
        } else if (choice.extensions().contains("VK_KHR_calibrated_timestamps")) {
            deviceExtensions.add("VK_KHR_calibrated_timestamps");
        }
        PointerBuffer ppExtensions = stack.mallocPointer(deviceExtensions.size());
        deviceExtensions.forEach(e -> ppExtensions.put(stack.UTF8(e)));
        ppExtensions.flip();

        VkDeviceQueueCreateInfo.Buffer queueInfo = AsyncQueues.createInfos(stack, choice.queueFamily(), async);
        VkDeviceCreateInfo createInfo = VkDeviceCreateInfo.calloc(stack).sType$Default()
                .pNext(enable.address()).pQueueCreateInfos(queueInfo).ppEnabledExtensionNames(ppExtensions);
        PointerBuffer pDevice = stack.mallocPointer(1);
        check(vkCreateDevice(physicalDevice, createInfo, null, pDevice), "vkCreateDevice");
        return new Created(new VkDevice(pDevice.get(0), physicalDevice, createInfo, VK_API_VERSION_1_3), HostFeatures.of(createInfo));
    }

    private static void requireFeature(boolean supported, String feature, String deviceName) {
        if (!supported) {
            throw new VulkanException("device '" + deviceName + "' lacks the Vulkan 1.3 feature " + feature + " that Tally needs");
        }
    }

    static long createAllocator(MemoryStack stack, VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device, FaultInjector faults) {
        VmaVulkanFunctions functions = VmaVulkanFunctions.calloc(stack).set(instance, device);
        long createBuffer = faults.createBufferFunction(device);
        if (createBuffer != NULL) {
            functions.vkCreateBuffer(createBuffer);   // test hook: oom@N fails the N-th buffer VMA creates
        }
        VmaAllocatorCreateInfo createInfo = VmaAllocatorCreateInfo.calloc(stack)
                .physicalDevice(physicalDevice).device(device).instance(instance)
                .pVulkanFunctions(functions).vulkanApiVersion(VK_API_VERSION_1_3);
        PointerBuffer pAllocator = stack.mallocPointer(1);
        check(vmaCreateAllocator(createInfo, pAllocator), "vmaCreateAllocator");
        return pAllocator.get(0);
    }
}

package dev.tally.internal.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

import java.nio.IntBuffer;

import static org.lwjgl.vulkan.VK10.*;

/**
 * Picks the async compute queue: a family with COMPUTE but not GRAPHICS (a dedicated compute engine)
 * first, else a second queue of the main family, else none (a device with one queue, as lavapipe).
 */
final class AsyncQueues {
    private AsyncQueues() {
    }

    /** {family, queue index} of the async compute queue, or null when there is none. */
    static int[] choose(VkPhysicalDevice pd, int mainFamily, MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, count, null);
        VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, count, families);
        for (int i = 0; i < families.capacity(); i++) {
            int flags = families.get(i).queueFlags();
            if (i != mainFamily && (flags & VK_QUEUE_COMPUTE_BIT) != 0 && (flags & VK_QUEUE_GRAPHICS_BIT) == 0
                    && families.get(i).queueCount() > 0 && families.get(i).timestampValidBits() > 0) {
                return new int[]{i, 0};
            }
        }
        return families.get(mainFamily).queueCount() >= 2 ? new int[]{mainFamily, 1} : null;
    }

    static VkDeviceQueueCreateInfo.Buffer createInfos(MemoryStack stack, int mainFamily, int[] async) {
        if (async == null) {
            return VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default().queueFamilyIndex(mainFamily).pQueuePriorities(stack.floats(1.0f));
        }
        if (async[0] == mainFamily) {
            return VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default().queueFamilyIndex(mainFamily)
                    .pQueuePriorities(stack.floats(1.0f, 1.0f));
        }
        VkDeviceQueueCreateInfo.Buffer infos = VkDeviceQueueCreateInfo.calloc(2, stack);
        infos.get(0).sType$Default().queueFamilyIndex(mainFamily).pQueuePriorities(stack.floats(1.0f));
        infos.get(1).sType$Default().queueFamilyIndex(async[0]).pQueuePriorities(stack.floats(1.0f));
        return infos;
    }
}

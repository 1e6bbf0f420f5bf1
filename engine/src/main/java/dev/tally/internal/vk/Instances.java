package dev.tally.internal.vk;

import dev.tally.vk.VulkanException;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.vulkan.EXTValidationFeatures.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_API_VERSION_1_3;

/** Instance creation: layers, extensions, and synchronization validation when validation is on. */
final class Instances {
    record Available(Set<String> layers, Set<String> extensions) {
    }

    private Instances() {
    }

    static Available available(MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        check(vkEnumerateInstanceLayerProperties(count, null), "vkEnumerateInstanceLayerProperties");
        Set<String> layers = new HashSet<>();
        try (MemoryStack inner = MemoryStack.stackPush()) {
            VkLayerProperties.Buffer props = VkLayerProperties.malloc(count.get(0), inner);
            check(vkEnumerateInstanceLayerProperties(count, props), "vkEnumerateInstanceLayerProperties");
            props.forEach(p -> layers.add(p.layerNameString()));
        }
        check(vkEnumerateInstanceExtensionProperties((String) null, count, null), "vkEnumerateInstanceExtensionProperties");
        Set<String> extensions = new HashSet<>();
        try (MemoryStack inner = MemoryStack.stackPush()) {
            VkExtensionProperties.Buffer props = VkExtensionProperties.malloc(count.get(0), inner);
            check(vkEnumerateInstanceExtensionProperties((String) null, count, props), "vkEnumerateInstanceExtensionProperties");
            props.forEach(p -> extensions.add(p.extensionNameString()));
        }
        return new Available(layers, extensions);
    }

    static VkInstance create(MemoryStack stack, ContextOptions options, List<String> layers, List<String> extensions,
                             VkDebugUtilsMessengerCreateInfoEXT messenger) {
        VkApplicationInfo app = VkApplicationInfo.calloc(stack).sType$Default()
                .pApplicationName(stack.UTF8(options.appName())).applicationVersion(1)
                .pEngineName(stack.UTF8("tally")).engineVersion(1).apiVersion(VK_API_VERSION_1_3);
        PointerBuffer ppLayers = stack.mallocPointer(layers.size());
        layers.forEach(l -> ppLayers.put(stack.UTF8(l)));
        ppLayers.flip();
        PointerBuffer ppExtensions = stack.mallocPointer(extensions.size());
        extensions.forEach(e -> ppExtensions.put(stack.UTF8(e)));
        ppExtensions.flip();

        long chain = 0;
        if (messenger != null && options.validation()) {
            messenger.pNext(chain);
            chain = messenger.address();
        }
        if (options.validation()) {
            // Synchronization validation is off unless asked for; it is what catches a missing barrier.
            VkValidationFeaturesEXT features = VkValidationFeaturesEXT.calloc(stack).sType$Default()
                    .pEnabledValidationFeatures(stack.ints(VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT));
            features.pNext(chain);
            chain = features.address();
        }
        VkInstanceCreateInfo createInfo = VkInstanceCreateInfo.calloc(stack).sType$Default()
                .pNext(chain).pApplicationInfo(app).ppEnabledLayerNames(ppLayers).ppEnabledExtensionNames(ppExtensions);
        PointerBuffer pInstance = stack.mallocPointer(1);
        int result = vkCreateInstance(createInfo, null, pInstance);
        if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
            throw new VulkanException(result, "vkCreateInstance (no Vulkan 1.3 driver found; install mesa-vulkan-drivers or a GPU driver)");
        }
        check(result, "vkCreateInstance");
        return new VkInstance(pInstance.get(0), createInfo);
    }
}

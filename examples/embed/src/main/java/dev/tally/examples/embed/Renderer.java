package dev.tally.examples.embed;

import dev.tally.Tally;
import dev.tally.vk.HostFeatures;
import dev.tally.vk.Requirements;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.util.vma.Vma.vmaCreateAllocator;
import static org.lwjgl.util.vma.Vma.vmaDestroyAllocator;
import static org.lwjgl.vulkan.EXTDebugUtils.*;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_API_VERSION_1_3;

/**
 * The renderer's own Vulkan objects, made with LWJGL and owned here: instance (with the Khronos
 * validation layer, synchronization validation and a messenger that counts messages when asked),
 * physical device, device, one graphics+compute queue, the VMA allocator, and per frame in flight a
 * command pool, a command buffer and a fence. Tally is handed these through {@link #host()} and never
 * destroys them.
 */
final class Renderer implements AutoCloseable {
    static final int FRAMES_IN_FLIGHT = 2;
    private static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";
    private static final long FENCE_TIMEOUT_NS = 60_000_000_000L;

    private final boolean validate;
    private final AtomicInteger errors = new AtomicInteger();
    private final AtomicInteger warnings = new AtomicInteger();
    private VkDebugUtilsMessengerCallbackEXT callback;
    private VkInstance instance;
    private long messenger = NULL;
    private VkPhysicalDevice physicalDevice;
    private int queueFamily = -1;
    private VkDevice device;
    private VkQueue queue;
    private long allocator = NULL;
    private HostFeatures enabled;
    private final long[] pools = new long[FRAMES_IN_FLIGHT];
    private final VkCommandBuffer[] commandBuffers = new VkCommandBuffer[FRAMES_IN_FLIGHT];
    private final long[] fences = new long[FRAMES_IN_FLIGHT];
    /** The structs every frame fills, allocated once (native memory, freed at close): a frame makes no wrapper objects. */
    private final VkCommandBufferBeginInfo beginInfo = VkCommandBufferBeginInfo.calloc().sType$Default()
            .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    private final VkSubmitInfo2 submitInfo = VkSubmitInfo2.calloc();

    /** @throws SetupException when the machine lacks what is asked for (a Vulkan 1.3 device, the validation layer) */
    Renderer(boolean validate) {
        this.validate = validate;
        try {
            createInstance();
            chooseDevice();
            createDevice();
            createAllocator();
            createFrameObjects();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** What the machine lacks, for a one-line message and exit status 2. */
    static final class SetupException extends RuntimeException {
        SetupException(String message) {
            super(message);
        }
    }

    static void check(int result, String call) {
        if (result != VK_SUCCESS) {
            throw new IllegalStateException(call + " failed: VkResult " + result);
        }
    }

    private void createInstance() {
        try (MemoryStack stack = stackPush()) {
            if (validate && !instanceLayers(stack).contains(VALIDATION_LAYER)) {
                throw new SetupException("--validate needs the Khronos validation layer; install it (Debian: apt-get install vulkan-validationlayers)");
            }
            VkApplicationInfo app = VkApplicationInfo.calloc(stack).sType$Default()
                    .pApplicationName(stack.UTF8("tally-embed-example")).apiVersion(VK_API_VERSION_1_3);
            VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app);
            if (validate) {
                callback = VkDebugUtilsMessengerCallbackEXT.create((severity, types, data, user) -> {
                    boolean error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
                    (error ? errors : warnings).incrementAndGet();
                    System.err.println("[validation " + (error ? "error" : "warning") + "] "
                            + VkDebugUtilsMessengerCallbackDataEXT.create(data).pMessageString());
                    return VK_FALSE;
                });
                VkDebugUtilsMessengerCreateInfoEXT messengerInfo = VkDebugUtilsMessengerCreateInfoEXT.calloc(stack).sType$Default()
                        .messageSeverity(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                        .messageType(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                                | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)
                        .pfnUserCallback(callback);
                // Synchronization validation is off unless enabled: it is what sees a missing barrier.
                VkValidationFeaturesEXT features = VkValidationFeaturesEXT.calloc(stack).sType$Default()
                        .pEnabledValidationFeatures(stack.ints(VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT));
                // Chained by address: LWJGL's typed pNext setters would drop the rest of the chain.
                features.pNext(messengerInfo.address());
                info.pNext(features.address())
                        .ppEnabledLayerNames(stack.pointers(stack.UTF8(VALIDATION_LAYER)))
                        .ppEnabledExtensionNames(stack.pointers(stack.UTF8(VK_EXT_DEBUG_UTILS_EXTENSION_NAME),
                                stack.UTF8(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)));
                PointerBuffer p = stack.mallocPointer(1);
                check(vkCreateInstance(info, null, p), "vkCreateInstance");
                instance = new VkInstance(p.get(0), info);
                LongBuffer m = stack.mallocLong(1);
                check(vkCreateDebugUtilsMessengerEXT(instance, messengerInfo, null, m), "vkCreateDebugUtilsMessengerEXT");
                messenger = m.get(0);
            } else {
                PointerBuffer p = stack.mallocPointer(1);
                int result = vkCreateInstance(info, null, p);
                if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
                    throw new SetupException("no Vulkan 1.3 driver found; install one (Debian: apt-get install mesa-vulkan-drivers)");
                }
                check(result, "vkCreateInstance");
                instance = new VkInstance(p.get(0), info);
            }
        }
    }

    private static Set<String> instanceLayers(MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        check(vkEnumerateInstanceLayerProperties(count, null), "vkEnumerateInstanceLayerProperties");
        VkLayerProperties.Buffer layers = VkLayerProperties.malloc(count.get(0), stack);
        check(vkEnumerateInstanceLayerProperties(count, layers), "vkEnumerateInstanceLayerProperties");
        Set<String> names = new HashSet<>();
        layers.forEach(l -> names.add(l.layerNameString()));
        return names;
    }

    /** The first Vulkan 1.3 device with a graphics+compute queue family, discrete GPUs first. */
    private void chooseDevice() {
        try (MemoryStack stack = stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            check(vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
            PointerBuffer handles = stack.mallocPointer(count.get(0));
            check(vkEnumeratePhysicalDevices(instance, count, handles), "vkEnumeratePhysicalDevices");
            int bestScore = -1;
            for (int i = 0; i < handles.capacity(); i++) {
                VkPhysicalDevice candidate = new VkPhysicalDevice(handles.get(i), instance);
                VkPhysicalDeviceProperties props = VkPhysicalDeviceProperties.malloc(stack);
                vkGetPhysicalDeviceProperties(candidate, props);
                int family = graphicsComputeFamily(candidate, stack);
                if (VK_API_VERSION_MINOR(props.apiVersion()) < 3 && VK_API_VERSION_MAJOR(props.apiVersion()) == 1 || family < 0) {
                    continue;
                }
                int score = props.deviceType() == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 2
                        : props.deviceType() == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 1 : 0;
                if (score > bestScore) {
                    bestScore = score;
                    physicalDevice = candidate;
                    queueFamily = family;
                }
            }
            if (physicalDevice == null) {
                throw new SetupException("no Vulkan 1.3 device with a graphics and compute queue");
            }
        }
    }

    private static int graphicsComputeFamily(VkPhysicalDevice candidate, MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, count, null);
        VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, count, families);
        int wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        for (int i = 0; i < families.capacity(); i++) {
            if ((families.get(i).queueFlags() & wanted) == wanted) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Tally's features (Tally.requirements(): timelineSemaphore, synchronization2, maintenance4, and for its
     * graphics paths dynamicRendering and shaderDemoteToHelperInvocation; hostQueryReset where offered) merged into the renderer's own chain;
     * what was enabled is handed to Tally with the host, since Vulkan cannot be asked later.
     */
    private void createDevice() {
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceVulkan13Features has13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default();
            VkPhysicalDeviceVulkan12Features has12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default().pNext(has13.address());
            VkPhysicalDeviceFeatures2 has = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(has12.address());
            VK11.vkGetPhysicalDeviceFeatures2(physicalDevice, has);
            if (!has13.synchronization2() || !has13.dynamicRendering() || !has12.timelineSemaphore() || !has13.maintenance4()) {
                throw new SetupException("the Vulkan device lacks synchronization2, dynamicRendering, timelineSemaphore or maintenance4");
            }
            // The renderer's own chain (dynamic rendering for its draws), with Tally's features merged in.
            VkPhysicalDeviceVulkan13Features on13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default().dynamicRendering(true);
            // Optional for Tally (Requirements.optionalFeatures): where offered, its timestamps are reset from the host, not inside the frame.
            VkPhysicalDeviceVulkan12Features on12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default().pNext(on13.address())
                    .hostQueryReset(has12.hostQueryReset());
            VkPhysicalDeviceFeatures2 on = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(on12.address());
            Tally.requirements().enableIn(on, stack, Requirements.allParts());
            VkDeviceCreateInfo info = VkDeviceCreateInfo.calloc(stack).sType$Default().pNext(on.address())
                    .pQueueCreateInfos(VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default()
                            .queueFamilyIndex(queueFamily).pQueuePriorities(stack.floats(1f)));
            PointerBuffer p = stack.mallocPointer(1);
            check(vkCreateDevice(physicalDevice, info, null, p), "vkCreateDevice");
            device = new VkDevice(p.get(0), physicalDevice, info, VK_API_VERSION_1_3);
            enabled = HostFeatures.of(info);   // Vulkan cannot be asked later: Tally is told what was enabled
            vkGetDeviceQueue(device, queueFamily, 0, p);
            queue = new VkQueue(p.get(0), device);
        }
    }

    private void createAllocator() {
        try (MemoryStack stack = stackPush()) {
            VmaAllocatorCreateInfo info = VmaAllocatorCreateInfo.calloc(stack).physicalDevice(physicalDevice).device(device)
                    .instance(instance).vulkanApiVersion(VK_API_VERSION_1_3)
                    .pVulkanFunctions(VmaVulkanFunctions.calloc(stack).set(instance, device));
            PointerBuffer p = stack.mallocPointer(1);
            check(vmaCreateAllocator(info, p), "vmaCreateAllocator");
            allocator = p.get(0);
        }
    }

    private void createFrameObjects() {
        try (MemoryStack stack = stackPush()) {
            for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
                LongBuffer p = stack.mallocLong(1);
                check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                        .flags(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT).queueFamilyIndex(queueFamily), null, p), "vkCreateCommandPool");
                pools[i] = p.get(0);
                PointerBuffer cb = stack.mallocPointer(1);
                check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                        .commandPool(pools[i]).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), cb), "vkAllocateCommandBuffers");
                commandBuffers[i] = new VkCommandBuffer(cb.get(0), device);
                check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default().flags(VK_FENCE_CREATE_SIGNALED_BIT), null, p),
                        "vkCreateFence");
                fences[i] = p.get(0);
            }
        }
    }

    /** Frame {@code frame}'s command buffer, begun, once the GPU has finished the frame that last used it. */
    VkCommandBuffer beginCommands(long frame) {
        int slot = (int) (frame % FRAMES_IN_FLIGHT);
        try (MemoryStack stack = stackPush()) {
            long fence = stack.nlong(fences[slot]);   // by address: a LongBuffer would be a wrapper object per frame
            check(nvkWaitForFences(device, 1, fence, VK_TRUE, FENCE_TIMEOUT_NS), "vkWaitForFences");
            check(nvkResetFences(device, 1, fence), "vkResetFences");
            check(vkResetCommandPool(device, pools[slot], 0), "vkResetCommandPool");
            check(vkBeginCommandBuffer(commandBuffers[slot], beginInfo), "vkBeginCommandBuffer");
        }
        return commandBuffers[slot];
    }

    /** The renderer's one VkSubmitInfo2, emptied for this frame's submit. */
    VkSubmitInfo2 submitInfo() {
        submitInfo.clear();
        return submitInfo.sType$Default();
    }

    /** The fence frame {@code frame}'s submission signals. */
    long fence(long frame) {
        return fences[(int) (frame % FRAMES_IN_FLIGHT)];
    }

    /** What Tally runs on. The queue is used from this thread only: no queue lock. */
    Tally.Host host() {
        return new Tally.Host(instance, physicalDevice, device, queue, queueFamily, allocator, null, validate, enabled);
    }

    VkDevice device() { return device; }
    VkQueue queue() { return queue; }
    long allocator() { return allocator; }
    int validationErrors() { return errors.get(); }
    int validationWarnings() { return warnings.get(); }

    /** Destroys everything, the instance last, so that the layer's reports on destruction are counted too. */
    @Override
    public void close() {
        if (device != null) {
            check(vkDeviceWaitIdle(device), "vkDeviceWaitIdle");
            for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
                if (fences[i] != NULL) {
                    vkDestroyFence(device, fences[i], null);
                }
                if (pools[i] != NULL) {
                    vkDestroyCommandPool(device, pools[i], null);
                }
            }
            if (allocator != NULL) {
                vmaDestroyAllocator(allocator);
            }
            vkDestroyDevice(device, null);
            device = null;
        }
        if (instance != null) {
            if (messenger != NULL) {
                vkDestroyDebugUtilsMessengerEXT(instance, messenger, null);
            }
            vkDestroyInstance(instance, null);
            instance = null;
        }
        if (callback != null) {
            callback.free();
            callback = null;
        }
        beginInfo.free();
        submitInfo.free();
    }
}

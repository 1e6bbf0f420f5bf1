package dev.tally.internal.vk;

import dev.tally.vk.HostFeatures;

import dev.tally.vk.VulkanException;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.util.vma.Vma.vmaDestroyAllocator;
import static org.lwjgl.vulkan.EXTDebugUtils.*;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The device Tally runs on: instance, physical device and its {@link DeviceInfo}, the logical device, its
 * queues, the VMA allocator and the validation messenger; format queries and command pools on them.
 * Either made here ({@link #create}) and destroyed at {@link #close}, or a renderer's ({@link #wrap}),
 * which Tally never destroys.
 */
public final class VulkanDevice {
    public static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";

    private final ValidationLog validationLog = new ValidationLog();
    private VkInstance instance;
    private long debugMessenger = NULL;
    private VkDebugUtilsMessengerCallbackEXT debugCallback;
    private boolean debugUtils;
    private VkPhysicalDevice physicalDevice;
    private DeviceInfo info;
    private VkDevice device;
    private int queueFamily;
    private VkQueue queue;
    /** The async compute queue: another family with COMPUTE, or a second queue of the main family; null when the device has one queue. */
    private VkQueue asyncQueue;
    private int asyncQueueFamily = -1;
    private long allocator = NULL;
    /** False when the instance, device and allocator belong to the embedding renderer. */
    private final boolean ownsDevice;
    /** True when the allocator is Tally's own: always on its own device, on a wrapped one when the host gave none. */
    private boolean ownsAllocator;
    /** What the device was created with: Tally's own, or what the host says its device enabled (null where it did not say). */
    private HostFeatures enabledFeatures;

    private VulkanDevice(boolean ownsDevice) {
        this.ownsDevice = ownsDevice;
    }

    /** A device of Tally's own; on any failure everything made so far is released. */
    static VulkanDevice create(ContextOptions options, FaultInjector faults) {
        VulkanDevice d = new VulkanDevice(true);
        try (MemoryStack stack = stackPush()) {
            d.open(stack, options, faults);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /**
     * A renderer's device: Tally uses the one queue it was given and destroys none of it. With {@code allocator}
     * 0 Tally makes its own VMA allocator on the device, destroyed at {@link #close}.
     */
    static VulkanDevice wrap(VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device, int queueFamily, VkQueue queue,
                             long allocator, boolean debugUtils, FaultInjector faults, HostFeatures enabled) {
        VulkanDevice d = new VulkanDevice(false);
        d.enabledFeatures = enabled;
        d.instance = instance;
        d.physicalDevice = physicalDevice;
        d.device = device;
        d.queueFamily = queueFamily;
        d.queue = queue;
        d.debugUtils = debugUtils;
        d.info = PhysicalDevices.describe(physicalDevice, -1).info();
        if (allocator == NULL) {
            try (MemoryStack stack = stackPush()) {
                d.allocator = DeviceCreation.createAllocator(stack, instance, physicalDevice, device, faults);
            }
            d.ownsAllocator = true;
        } else {
            d.allocator = allocator;
        }
        return d;
    }

    private void open(MemoryStack stack, ContextOptions options, FaultInjector faults) {
        List<String> layers = new ArrayList<>();
        List<String> extensions = new ArrayList<>(options.instanceExtensions());
        Instances.Available available = Instances.available(stack);
        if (options.validation()) {
            if (!available.layers().contains(VALIDATION_LAYER)) {
                throw new VulkanException("validation requested but " + VALIDATION_LAYER
                        + " is not installed (Debian/Ubuntu: apt-get install vulkan-validationlayers)");
            }
            layers.add(VALIDATION_LAYER);
            extensions.add(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        }
        debugUtils = available.extensions().contains(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        if (debugUtils) {
            extensions.add(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        }
        debugCallback = VkDebugUtilsMessengerCallbackEXT.create((severity, types, data, user) -> {
            VkDebugUtilsMessengerCallbackDataEXT d = VkDebugUtilsMessengerCallbackDataEXT.create(data);
            boolean error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
            validationLog.record(error, d.pMessageString());
            return VK_FALSE;
        });
        VkDebugUtilsMessengerCreateInfoEXT messengerInfo = VkDebugUtilsMessengerCreateInfoEXT.calloc(stack)
                .sType$Default()
                .messageSeverity(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                .messageType(VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT
                        | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT)
                .pfnUserCallback(debugCallback);
        instance = Instances.create(stack, options, layers, extensions, debugUtils ? messengerInfo : null);
        if (debugUtils && options.validation()) {
            LongBuffer pMessenger = stack.mallocLong(1);
            check(vkCreateDebugUtilsMessengerEXT(instance, messengerInfo, null, pMessenger), "vkCreateDebugUtilsMessengerEXT");
            debugMessenger = pMessenger.get(0);
        }
        PhysicalDevices.Choice choice = PhysicalDevices.choose(instance, options.device(), stack);
        physicalDevice = choice.device();
        info = choice.info();
        queueFamily = choice.queueFamily();
        int[] async = AsyncQueues.choose(physicalDevice, queueFamily, stack);
        DeviceCreation.Created created = DeviceCreation.createDevice(stack, choice, async, options);
        device = created.device();
        enabledFeatures = created.enabled();
        PointerBuffer pQueue = stack.mallocPointer(1);
        vkGetDeviceQueue(device, queueFamily, 0, pQueue);
        queue = new VkQueue(pQueue.get(0), device);
        if (async != null) {
            vkGetDeviceQueue(device, async[0], async[1], pQueue);
            asyncQueue = new VkQueue(pQueue.get(0), device);
            asyncQueueFamily = async[0];
        }
        allocator = DeviceCreation.createAllocator(stack, instance, physicalDevice, device, faults);
        ownsAllocator = true;
    }

    /** Whether {@code format}'s optimal tiling offers every one of {@code features} (VK_FORMAT_FEATURE_*_BIT) on this device. */
    public boolean optimalTilingSupports(int format, int features) {
        try (MemoryStack stack = stackPush()) {
            VkFormatProperties props = VkFormatProperties.malloc(stack);
            vkGetPhysicalDeviceFormatProperties(physicalDevice, format, props);
            return (props.optimalTilingFeatures() & features) == features;
        }
    }

    /** A command pool on {@code family} (the main or the async compute queue's); the caller owns it. */
    public long createCommandPool(MemoryStack stack, int flags, int family) {
        VkCommandPoolCreateInfo createInfo = VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                .flags(flags).queueFamilyIndex(family);
        LongBuffer p = stack.mallocLong(1);
        check(vkCreateCommandPool(device, createInfo, null, p), "vkCreateCommandPool");
        return p.get(0);
    }

    public VkCommandBuffer allocateCommandBuffer(long pool) {
        try (MemoryStack stack = stackPush()) {
            VkCommandBufferAllocateInfo allocInfo = VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                    .commandPool(pool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1);
            PointerBuffer p = stack.mallocPointer(1);
            check(vkAllocateCommandBuffers(device, allocInfo, p), "vkAllocateCommandBuffers");
            return new VkCommandBuffer(p.get(0), device);
        }
    }

    /** Begins {@code cmd} for one submission (every command buffer Tally records is submitted once). */
    public static void beginOneTime(VkCommandBuffer cmd) {
        try (MemoryStack stack = stackPush()) {
            // Written by address (static setters): every frame begins command buffers, and a struct wrapper per call is garbage.
            long info = stack.ncalloc(VkCommandBufferBeginInfo.ALIGNOF, 1, VkCommandBufferBeginInfo.SIZEOF);
            VkCommandBufferBeginInfo.nsType(info, VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
            VkCommandBufferBeginInfo.nflags(info, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
            check(nvkBeginCommandBuffer(cmd, info), "vkBeginCommandBuffer");
        }
    }

    /**
     * Destroys what Tally made (nothing of a renderer's): the allocator, the device, the messenger and the
     * instance, newest first, skipping what a failed {@link #create} never made. On a renderer's device only
     * an allocator Tally made itself.
     */
    void close() {
        if (ownsAllocator && allocator != NULL) {
            vmaDestroyAllocator(allocator);
            allocator = NULL;
        }
        if (!ownsDevice) {
            return;   // the renderer's device, allocator and instance live on
        }
        if (device != null) {
            vkDestroyDevice(device, null);
        }
        if (instance != null) {
            if (debugMessenger != NULL) {
                vkDestroyDebugUtilsMessengerEXT(instance, debugMessenger, null);
            }
            vkDestroyInstance(instance, null);
        }
        if (debugCallback != null) {
            debugCallback.free();
        }
    }

    public VkInstance instance() { return instance; }
    public VkPhysicalDevice physicalDevice() { return physicalDevice; }
    public VkDevice device() { return device; }
    public VkQueue queue() { return queue; }
    public int queueFamily() { return queueFamily; }
    /** The async compute queue, or null when the device offers no second queue (lavapipe) or the device is a renderer's. */
    public VkQueue asyncQueue() { return asyncQueue; }
    /** The async compute queue's family, -1 without one. */
    public int asyncQueueFamily() { return asyncQueueFamily; }
    public long allocator() { return allocator; }
    public DeviceInfo info() { return info; }
    public boolean debugUtils() { return debugUtils; }
    /** Validation messages of Tally's own messenger (a renderer's device reports to the renderer's). */
    public ValidationLog validationLog() { return validationLog; }
    boolean ownsDevice() { return ownsDevice; }
    /** Whether the VMA allocator is Tally's own (its own device, or a wrapped one given none). */
    public boolean ownsAllocator() { return ownsAllocator; }
    /** The features Tally's own device was created with; null for a wrapped device (its host reports them). */
    public HostFeatures enabledFeatures() { return enabledFeatures; }
}

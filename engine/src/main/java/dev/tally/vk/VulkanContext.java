package dev.tally.vk;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.util.vma.VmaTotalStatistics;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static dev.tally.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.system.MemoryUtil.memUTF8;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.EXTDebugUtils.*;
import static org.lwjgl.vulkan.EXTValidationFeatures.*;
import static org.lwjgl.vulkan.KHRSwapchain.VK_KHR_SWAPCHAIN_EXTENSION_NAME;
import static org.lwjgl.vulkan.NVShaderSmBuiltins.VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.*;
import static org.lwjgl.vulkan.VK12.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Instance, device, one graphics+compute queue, the VMA allocator and a timeline semaphore that tracks
 * completion of every submission. Objects closed while the GPU may still use them are destroyed once
 * the timeline passes the last submission made before they were closed.
 */
public final class VulkanContext implements AutoCloseable {
    public static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";
    private static final long WAIT_TIMEOUT_NS = 120_000_000_000L;

    private final ContextOptions options;
    private final FaultInjector faults;
    private final ValidationLog validationLog = new ValidationLog();
    private final DeferredDestroyer destroyer = new DeferredDestroyer();
    private VkInstance instance;
    private long debugMessenger;
    private VkDebugUtilsMessengerCallbackEXT debugCallback;
    private final boolean debugUtils;
    private final VkPhysicalDevice physicalDevice;
    private final DeviceInfo info;
    private VkDevice device;
    private final int queueFamily;
    private final VkQueue queue;
    private long allocator;
    private long timeline;
    private long commandPool;
    private final java.util.concurrent.atomic.AtomicLong serials = new java.util.concurrent.atomic.AtomicLong();
    /** Held around every vkQueueSubmit2 and vkQueuePresentKHR Tally makes; a wrapping renderer may share its own. */
    private final Lock queueLock;
    /** The async compute queue: another family with COMPUTE, or a second queue of the main family; null when the device has one queue. */
    private final VkQueue asyncQueue;
    private final int asyncQueueFamily;
    private final Lock asyncQueueLock = new ReentrantLock();
    private final Waits waits = new Waits();
    /** The highest timeline value given to a submission (a frame's, or Tally's own); deferred destruction keys on it. */
    private long handedOut;
    /** The highest timeline value whose submission was made (or promised, by a frame's submission hook). */
    private long lastSubmitted;
    /** The value of the frame between its begin and its submission hook, 0 when none is open. */
    private long openFrameValue;
    private boolean closed;
    /** Set when any call reports VK_ERROR_DEVICE_LOST: nothing more is submitted and nothing waits. */
    private volatile boolean deviceLost;
    private String lostAt;
    private boolean drainedAfterLoss;
    /** False when the instance, device and allocator belong to the embedding renderer. */
    private final boolean ownsDevice;
    /** True when the allocator is Tally's own: always on its own device, on a wrapped one when the host gave none. */
    private final boolean ownsAllocator;
    /** What this context's own device was created with (null for a wrapped device: the host says what it enabled). */
    private HostFeatures enabledFeatures;

    private VulkanContext(ContextOptions options) {
        this.options = options;
        this.faults = new FaultInjector(FaultPlan.parse(options.faults()));
        this.ownsDevice = true;
        this.ownsAllocator = true;
        this.queueLock = new ReentrantLock();
        try (MemoryStack stack = stackPush()) {
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
            } else {
                debugMessenger = NULL;
            }
            PhysicalDevices.Choice choice = PhysicalDevices.choose(instance, options.device(), stack);
            physicalDevice = choice.device();
            info = choice.info();
            queueFamily = choice.queueFamily();
            int[] async = AsyncQueues.choose(physicalDevice, queueFamily, stack);
            device = createDevice(stack, choice, async);
            PointerBuffer pQueue = stack.mallocPointer(1);
            vkGetDeviceQueue(device, queueFamily, 0, pQueue);
            queue = new VkQueue(pQueue.get(0), device);
            if (async != null) {
                vkGetDeviceQueue(device, async[0], async[1], pQueue);
                asyncQueue = new VkQueue(pQueue.get(0), device);
                asyncQueueFamily = async[0];
            } else {
                asyncQueue = null;
                asyncQueueFamily = -1;
            }
            allocator = createAllocator(stack);
            timeline = createTimeline(stack);
            commandPool = createCommandPool(stack, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
        } catch (RuntimeException e) {
            releasePartial();
            throw e;
        }
    }

    /** A constructor that failed half-way releases what it made, newest first. */
    private void releasePartial() {
        if (device != null) {
            if (timeline != NULL) {
                vkDestroySemaphore(device, timeline, null);
            }
            if (allocator != NULL) {
                vmaDestroyAllocator(allocator);
            }
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
        faults.close();
    }

    private VulkanContext(ContextOptions options, VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device, int queueFamily,
                          VkQueue queue, long allocator, boolean debugUtils, Lock queueLock) {
        if (FaultPlan.parse(options.faults()).kind() == FaultPlan.Kind.OOM) {
            throw new IllegalArgumentException("fault " + options.faults()
                    + " needs Tally's own VMA allocator; a wrapped context can inject device-lost faults only");
        }
        this.options = options;
        this.faults = new FaultInjector(FaultPlan.parse(options.faults()));
        this.ownsDevice = false;
        this.queueLock = queueLock != null ? queueLock : new ReentrantLock();
        this.instance = instance;
        this.physicalDevice = physicalDevice;
        this.device = device;
        this.queueFamily = queueFamily;
        this.queue = queue;
        this.asyncQueue = null;   // a renderer's device: Tally uses the one queue it was given
        this.asyncQueueFamily = -1;
        this.ownsAllocator = allocator == NULL;
        this.debugUtils = debugUtils;
        this.debugMessenger = NULL;
        this.info = PhysicalDevices.describe(physicalDevice, -1).info();
        try (MemoryStack stack = stackPush()) {
            // No allocator from the host: Tally's own VMA allocator on the host's device, destroyed at close.
            this.allocator = ownsAllocator ? createAllocator(stack) : allocator;
            timeline = createTimeline(stack);
            commandPool = createCommandPool(stack, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
        } catch (RuntimeException e) {
            if (timeline != NULL) {
                vkDestroySemaphore(device, timeline, null);
            }
            if (ownsAllocator && this.allocator != NULL) {
                vmaDestroyAllocator(this.allocator);
            }
            faults.close();
            throw e;
        }
    }

    /**
     * Runs Tally on a renderer's own Vulkan objects: its instance, device, queue (graphics+compute) and
     * VMA allocator, which Tally never destroys. The device must have enabled synchronization2,
     * dynamicRendering and timelineSemaphore (Vulkan 1.3). Tally adds its own timeline semaphore and
     * command pool; validation messages go to the renderer's own messenger, not to
     * {@link #validationLog()}. {@code debugUtils}: the instance enabled VK_EXT_debug_utils (pass labels).
     * {@code queueLock}: the lock the renderer holds around its own submissions to {@code queue} (Vulkan
     * requires external synchronization of a queue); Tally takes it around each of its submits and
     * presents. Null when the renderer does not share the queue across threads.
     */
    public static VulkanContext wrap(ContextOptions options, VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device,
                                     int queueFamily, VkQueue queue, long vmaAllocator, boolean debugUtils, Lock queueLock) {
        return new VulkanContext(options, instance, physicalDevice, device, queueFamily, queue, vmaAllocator, debugUtils, queueLock);
    }

    /** Creates a context; on any failure everything created so far is released. */
    public static VulkanContext create(ContextOptions options) {
        return new VulkanContext(options);
    }

    private VkDevice createDevice(MemoryStack stack, PhysicalDevices.Choice choice, int[] async) {
        VkPhysicalDeviceVulkan13Features supported13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default();
        VkPhysicalDeviceVulkan12Features supported12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default();
        VkPhysicalDeviceFeatures2 supported = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default();
        // Chain by address: LWJGL's typed pNext setters prepend and would drop the rest of the chain.
        supported.pNext(supported12.address());
        supported12.pNext(supported13.address());
        vkGetPhysicalDeviceFeatures2(physicalDevice, supported);
        requireFeature(supported13.synchronization2(), "synchronization2");
        requireFeature(supported13.dynamicRendering(), "dynamicRendering");
        requireFeature(supported12.timelineSemaphore(), "timelineSemaphore");

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

        VkDeviceQueueCreateInfo.Buffer queueInfo = AsyncQueues.createInfos(stack, queueFamily, async);
        VkDeviceCreateInfo createInfo = VkDeviceCreateInfo.calloc(stack).sType$Default()
                .pNext(enable.address()).pQueueCreateInfos(queueInfo).ppEnabledExtensionNames(ppExtensions);
        PointerBuffer pDevice = stack.mallocPointer(1);
        check(vkCreateDevice(physicalDevice, createInfo, null, pDevice), "vkCreateDevice");
        VkDevice created = new VkDevice(pDevice.get(0), physicalDevice, createInfo, VK_API_VERSION_1_3);
        enabledFeatures = HostFeatures.of(createInfo);
        return created;
    }

    private void requireFeature(boolean supported, String name) {
        if (!supported) {
            throw new VulkanException("device '" + info.name() + "' lacks the Vulkan 1.3 feature " + name + " that Tally needs");
        }
    }

    private long createAllocator(MemoryStack stack) {
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

    private long createTimeline(MemoryStack stack) {
        VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default()
                .semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE).initialValue(0);
        VkSemaphoreCreateInfo createInfo = VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type.address());
        LongBuffer p = stack.mallocLong(1);
        check(vkCreateSemaphore(device, createInfo, null, p), "vkCreateSemaphore(timeline)");
        nameObject(VK_OBJECT_TYPE_SEMAPHORE, p.get(0), "tally.timeline");
        return p.get(0);
    }

    /** Whether {@code format}'s optimal tiling offers every one of {@code features} (VK_FORMAT_FEATURE_*_BIT) on this device. */
    public boolean optimalTilingSupports(int format, int features) {
        try (MemoryStack stack = stackPush()) {
            VkFormatProperties props = VkFormatProperties.malloc(stack);
            vkGetPhysicalDeviceFormatProperties(physicalDevice, format, props);
            return (props.optimalTilingFeatures() & features) == features;
        }
    }

    /** A command pool on the context's queue family; the caller owns it. */
    public long createCommandPool(MemoryStack stack, int flags) {
        return createCommandPool(stack, flags, queueFamily);
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

    /**
     * Opens a frame: hands out the next timeline value, which the frame's submission must signal. Until
     * {@link #frameSubmitted} or {@link #frameAbandoned}, Tally submits nothing of its own (a later value
     * signalled first would make the frame's signal invalid).
     */
    public synchronized long openFrame() {
        if (openFrameValue != 0) {
            throw new IllegalStateException("internal: timeline value " + openFrameValue + " is still open");
        }
        openFrameValue = ++handedOut;
        return openFrameValue;
    }

    /** The open frame's submission was made, or will be by the caller with the signal it was handed. */
    public synchronized void frameSubmitted(long value) {
        if (value != openFrameValue) {
            throw new IllegalStateException("internal: timeline value " + value + " is not the open frame's (" + openFrameValue + ")");
        }
        lastSubmitted = value;
        openFrameValue = 0;
    }

    /** The open frame will never be submitted: its value is handed out again to the next one. */
    public synchronized void frameAbandoned(long value) {
        if (value == openFrameValue) {
            openFrameValue = 0;
            if (handedOut == value) {
                handedOut--;
            }
        }
    }

    /**
     * Submits {@code cmd}, signalling the next timeline value, which is returned. Optional binary
     * semaphores serve swapchain acquire/present. Refused while a frame is open.
     */
    public long submit(VkCommandBuffer cmd, long waitBinary, long waitStage, long signalBinary) {
        long value;
        synchronized (this) {
            if (openFrameValue != 0) {
                throw new IllegalStateException("Tally cannot submit work of its own while the frame with timeline value " + openFrameValue
                        + " is open (its submission must come first); submit or abandon that frame first");
            }
            value = ++handedOut;
        }
        try {
            submitSignalling(cmd, value, waitBinary, waitStage, signalBinary);
        } catch (RuntimeException e) {
            synchronized (this) {
                if (handedOut == value) {
                    handedOut--;   // nothing was submitted: the value is free again
                }
            }
            throw e;
        }
        synchronized (this) {
            lastSubmitted = Math.max(lastSubmitted, value);
        }
        return value;
    }

    /** Submits the open frame's command buffer, signalling its timeline value. */
    public void submitFrame(VkCommandBuffer cmd, long value, long waitBinary, long waitStage, long signalBinary) {
        synchronized (this) {
            if (value != openFrameValue) {
                throw new IllegalStateException("internal: timeline value " + value + " is not the open frame's (" + openFrameValue + ")");
            }
        }
        submitSignalling(cmd, value, waitBinary, waitStage, signalBinary);
        frameSubmitted(value);
    }

    private void submitSignalling(VkCommandBuffer cmd, long value, long waitBinary, long waitStage, long signalBinary) {
        if (deviceLost) {
            // Submitting to a lost device is pointless (and may crash some drivers): fail at once.
            check(VK_ERROR_DEVICE_LOST, "submission " + value + " (vkQueueSubmit2 not called: the device was lost at " + lostAt + ")");
        }
        try (MemoryStack stack = stackPush()) {
            // Every frame: the structs are written by address (static setters), without wrapper objects.
            long cmdInfo = stack.ncalloc(VkCommandBufferSubmitInfo.ALIGNOF, 1, VkCommandBufferSubmitInfo.SIZEOF);
            VkCommandBufferSubmitInfo.nsType(cmdInfo, VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
            MemoryUtil.memPutAddress(cmdInfo + VkCommandBufferSubmitInfo.COMMANDBUFFER, cmd.address());
            int signalCount = signalBinary != NULL ? 2 : 1;
            long signals = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, signalCount, VkSemaphoreSubmitInfo.SIZEOF);
            semaphoreInfo(signals, timeline, value, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            if (signalBinary != NULL) {
                semaphoreInfo(signals + VkSemaphoreSubmitInfo.SIZEOF, signalBinary, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            }
            long submit = stack.ncalloc(VkSubmitInfo2.ALIGNOF, 1, VkSubmitInfo2.SIZEOF);
            VkSubmitInfo2.nsType(submit, VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
            VkSubmitInfo2.ncommandBufferInfoCount(submit, 1);
            MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PCOMMANDBUFFERINFOS, cmdInfo);
            VkSubmitInfo2.nsignalSemaphoreInfoCount(submit, signalCount);
            MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, signals);
            if (waitBinary != NULL) {
                long wait = stack.ncalloc(VkSemaphoreSubmitInfo.ALIGNOF, 1, VkSemaphoreSubmitInfo.SIZEOF);
                semaphoreInfo(wait, waitBinary, 0, waitStage);
                VkSubmitInfo2.nwaitSemaphoreInfoCount(submit, 1);
                MemoryUtil.memPutAddress(submit + VkSubmitInfo2.PWAITSEMAPHOREINFOS, wait);
            }
            int injected = faults.beforeSubmit(value);
            int result;
            if (injected != VK_SUCCESS) {
                result = injected;
            } else {
                queueLock.lock();
                try {
                    result = nvkQueueSubmit2(queue, 1, submit, VK_NULL_HANDLE);
                } finally {
                    queueLock.unlock();
                }
            }
            if (result < 0) {
                String what = "submission " + value + " (vkQueueSubmit2"
                        + (injected != VK_SUCCESS ? ", injected by debug.injectFault=" + faults.plan().spec() : "") + ")";
                if (result == VK_ERROR_DEVICE_LOST) {
                    markLost(what);
                }
                check(result, what);
            }
        }
    }

    /** Writes one VkSemaphoreSubmitInfo at {@code info} (zeroed memory). */
    private static void semaphoreInfo(long info, long semaphore, long value, long stages) {
        VkSemaphoreSubmitInfo.nsType(info, VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
        VkSemaphoreSubmitInfo.nsemaphore(info, semaphore);
        VkSemaphoreSubmitInfo.nvalue(info, value);
        VkSemaphoreSubmitInfo.nstageMask(info, stages);
    }

    public long submit(VkCommandBuffer cmd) {
        return submit(cmd, NULL, 0, NULL);
    }

    /** The highest timeline value the GPU has reached; never waits. */
    public long completedValue() {
        if (deviceLost) {
            drainAfterLoss();
            return lastSubmitted();
        }
        try (MemoryStack stack = stackPush()) {
            // By address: asked several times a frame, and a LongBuffer wrapper would be garbage each time.
            long p = stack.nmalloc(8, 8);
            int result = nvkGetSemaphoreCounterValue(device, timeline, p);
            if (result == VK_ERROR_DEVICE_LOST) {
                markLost("vkGetSemaphoreCounterValue");
            }
            check(result, "vkGetSemaphoreCounterValue");
            return MemoryUtil.memGetLong(p);
        }
    }

    /**
     * The first report of a lost device is thrown where it happens; from then on nothing is submitted
     * and waits return at once, so that closing releases everything without a second error.
     */
    private synchronized void markLost(String where) {
        if (!deviceLost) {
            lostAt = where;
            deviceLost = true;
        }
    }

    /**
     * After a loss, once: vkDeviceWaitIdle, which on a lost device returns (VK_ERROR_DEVICE_LOST) in
     * finite time, and after an injected loss lets earlier work really finish. Then every submission
     * counts as complete, so deferred destruction can run.
     */
    private synchronized void drainAfterLoss() {
        if (!drainedAfterLoss) {
            drainedAfterLoss = true;
            faults.afterLoss(vkDeviceWaitIdle(device));   // VK_ERROR_DEVICE_LOST expected: nothing to do about it
        }
    }

    /** True once any call reported VK_ERROR_DEVICE_LOST (real or injected); the context can then only be closed. */
    public boolean isDeviceLost() {
        return deviceLost;
    }

    /** Where the loss was first seen (e.g. "submission 50 (vkQueueSubmit2)"), or null. */
    public synchronized String lostAt() {
        return lostAt;
    }

    /** Blocks until the timeline reaches {@code value}, counted as a wait of cause OTHER. */
    public void waitFor(long value) {
        waitFor(value, Waits.Cause.OTHER);
    }

    /** Blocks until the timeline reaches {@code value}; a wait that blocks is counted in {@link #waits()} under {@code cause}. */
    public void waitFor(long value, Waits.Cause cause) {
        if (value <= 0) {
            return;
        }
        if (deviceLost) {
            drainAfterLoss();
            retire();
            return;
        }
        if (completedValue() >= value) {
            return;
        }
        long start = System.nanoTime();
        try (MemoryStack stack = stackPush()) {
            VkSemaphoreWaitInfo waitInfo = VkSemaphoreWaitInfo.calloc(stack).sType$Default()
                    .semaphoreCount(1).pSemaphores(stack.longs(timeline)).pValues(stack.longs(value));
            // A bounded wait: a lost or hung device must surface as an error, never as a hang. Generous,
            // since a CPU driver can take seconds for work a GPU does in milliseconds.
            int result = vkWaitSemaphores(device, waitInfo, WAIT_TIMEOUT_NS);
            if (result == VK_TIMEOUT) {
                throw new VulkanException(VK_TIMEOUT, "vkWaitSemaphores(timeline " + value + ", " + WAIT_TIMEOUT_NS / 1_000_000_000L + " s)");
            }
            if (result == VK_ERROR_DEVICE_LOST) {
                markLost("vkWaitSemaphores (waiting for submission " + value + ")");
            }
            check(result, "vkWaitSemaphores (waiting for submission " + value + ")");
        } finally {
            waits.record(Waits.Kind.TIMELINE, cause, System.nanoTime() - start);
        }
        retire();
    }

    /** Waits for everything submitted so far (a frame still open is not waited for: it was not submitted). */
    public void waitIdle() {
        waitFor(lastSubmitted());
        retire();
    }

    /** Destroys what the GPU is done with; cheap, call once per frame. */
    public void retire() {
        destroyer.retire(completedValue());
    }

    /** Runs {@code destroy} once every submission made so far has completed. */
    public void defer(Runnable destroy) {
        if (closed) {
            // Everything died with the device (and was reported as a leak at close): nothing to free.
            return;
        }
        if (deviceLost) {
            drainAfterLoss();   // nothing runs any more: free at once
            destroy.run();
            return;
        }
        long value;
        synchronized (this) {
            value = handedOut;   // an open frame may already have recorded a use of what is being closed
        }
        if (value <= completedValue()) {
            destroy.run();
        } else {
            destroyer.defer(value, destroy);
        }
    }

    /** Begins {@code cmd} for one submission (every command buffer Tally records is submitted once). */
    public static void beginOneTime(VkCommandBuffer cmd) {
        try (MemoryStack stack = stackPush()) {
            check(vkBeginCommandBuffer(cmd, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
        }
    }

    /** Records with {@code recorder}, submits and waits. For tools and tests, not for frame loops. */
    public void submitAndWait(Consumer<VkCommandBuffer> recorder) {
        VkCommandBuffer cmd = allocateCommandBuffer(commandPool);
        boolean pending = false;
        try {
            beginOneTime(cmd);
            // Tools chain one-shot submissions (upload, then compute): order against everything earlier
            // on the queue, since a host wait alone does not make device writes visible to later commands.
            Barriers.memory(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
            recorder.accept(cmd);
            check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
            long value = submit(cmd);
            pending = true;
            waitFor(value);
            pending = false;
        } finally {
            // A command buffer the GPU may still execute must not be freed: the pool reclaims it at close.
            if (!pending) {
                vkFreeCommandBuffers(device, commandPool, cmd);
            }
        }
    }

    /** Gives a Vulkan object a name that shows in validation messages and captures. */
    public void nameObject(int objectType, long handle, String name) {
        if (!debugUtils || handle == NULL) {
            return;
        }
        try (MemoryStack stack = stackPush()) {
            VkDebugUtilsObjectNameInfoEXT nameInfo = VkDebugUtilsObjectNameInfoEXT.calloc(stack).sType$Default()
                    .objectType(objectType).objectHandle(handle).pObjectName(stack.UTF8(name));
            vkSetDebugUtilsObjectNameEXT(device, nameInfo);
        }
    }

    public void beginLabel(VkCommandBuffer cmd, String name) {
        if (!debugUtils) {
            return;
        }
        // By address (the label struct and the UTF-8 name on the stack): once per pass, without wrapper objects.
        try (MemoryStack stack = stackPush()) {
            long label = asciiOrUtf8(stack, name);
            long info = stack.ncalloc(VkDebugUtilsLabelEXT.ALIGNOF, 1, VkDebugUtilsLabelEXT.SIZEOF);
            VkDebugUtilsLabelEXT.nsType(info, EXTDebugUtils.VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT);
            MemoryUtil.memPutAddress(info + VkDebugUtilsLabelEXT.PLABELNAME, label);
            nvkCmdBeginDebugUtilsLabelEXT(cmd, info);
        }
    }

    /** {@code s} as a NUL-terminated string on the stack: ASCII byte by byte (no wrapper object), anything else as UTF-8. */
    private static long asciiOrUtf8(MemoryStack stack, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                stack.nUTF8(s, true);
                return stack.getPointerAddress();
            }
        }
        long at = stack.nmalloc(1, s.length() + 1);
        for (int i = 0; i < s.length(); i++) {
            MemoryUtil.memPutByte(at + i, (byte) s.charAt(i));
        }
        MemoryUtil.memPutByte(at + s.length(), (byte) 0);
        return at;
    }

    public void endLabel(VkCommandBuffer cmd) {
        if (debugUtils) {
            vkCmdEndDebugUtilsLabelEXT(cmd);
        }
    }

    /**
     * A number never handed out twice by this context. Vulkan handles are reused after destruction,
     * so caches key on serials, never on handles.
     */
    public long nextSerial() {
        return serials.incrementAndGet();
    }

    private final java.util.concurrent.atomic.AtomicLong otherObjects = new java.util.concurrent.atomic.AtomicLong();

    /** Pipelines and descriptor sets report their creation here (buffers and images count through their serials). */
    public void countObject() {
        otherObjects.incrementAndGet();
    }

    /** Vulkan objects created through Tally so far: flat in a steady-state frame loop. */
    public long objectsCreated() {
        return serials.get() + otherObjects.get();
    }

    /** Live VMA allocations and their bytes. */
    public long[] liveAllocations() {
        try (MemoryStack stack = stackPush()) {
            VmaTotalStatistics stats = VmaTotalStatistics.calloc(stack);
            vmaCalculateStatistics(allocator, stats);
            return new long[]{stats.total().statistics().allocationCount(), stats.total().statistics().allocationBytes()};
        }
    }

    /**
     * Device-local memory as VMA sees it for this process: the largest device-local heap, its size,
     * its budget (what the process may use in all, from VK_EXT_memory_budget or an estimate) and the
     * bytes used now.
     */
    public record MemoryBudget(int heap, long heapSize, long budget, long usage) {
        /** Bytes still free within the budget. */
        public long available() {
            return Math.max(0, budget - usage);
        }

        /** "U MiB used of a B MiB budget on a H MiB heap", for messages. */
        public String describe() {
            return (usage >> 20) + " MiB used of a " + (budget >> 20) + " MiB budget on a " + (heapSize >> 20) + " MiB heap";
        }
    }

    /** The budget of the largest device-local heap (where a large buffer would go), for up-front size checks. */
    public MemoryBudget deviceMemoryBudget() {
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceMemoryProperties memory = VkPhysicalDeviceMemoryProperties.malloc(stack);
            vkGetPhysicalDeviceMemoryProperties(physicalDevice, memory);
            VmaBudget.Buffer budgets = VmaBudget.calloc(VK_MAX_MEMORY_HEAPS, stack);
            vmaGetHeapBudgets(allocator, budgets);
            int best = -1;
            for (int h = 0; h < memory.memoryHeapCount(); h++) {
                boolean local = (memory.memoryHeaps(h).flags() & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
                if (local && (best < 0 || memory.memoryHeaps(h).size() > memory.memoryHeaps(best).size())) {
                    best = h;
                }
            }
            if (best < 0) {
                best = 0;   // no heap flagged device-local (unusual): the first heap is what buffers get
            }
            return new MemoryBudget(best, memory.memoryHeaps(best).size(), budgets.get(best).budget(), budgets.get(best).usage());
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            // A lost device answers VK_ERROR_DEVICE_LOST (in finite time); destroying is still allowed and
            // required, so the result changes nothing here: the loss was reported where it happened.
            int idle = faults.afterLoss(vkDeviceWaitIdle(device));
            if (idle == VK_ERROR_DEVICE_LOST) {
                markLost("vkDeviceWaitIdle (closing)");
            }
        } finally {
            closed = true;
            destroyer.retireAll();
            vkDestroyCommandPool(device, commandPool, null);
            vkDestroySemaphore(device, timeline, null);
            if (!ownsDevice) {
                if (ownsAllocator) {
                    vmaDestroyAllocator(allocator);
                }
                return; // the renderer's device, allocator and instance live on
            }
            long[] live = liveAllocations();
            vmaDestroyAllocator(allocator);
            faults.close();
            vkDestroyDevice(device, null);
            if (debugMessenger != NULL) {
                vkDestroyDebugUtilsMessengerEXT(instance, debugMessenger, null);
            }
            vkDestroyInstance(instance, null);
            debugCallback.free();
            if (live[0] != 0) {
                validationLog.record(true, "tally: " + live[0] + " VMA allocation(s) of " + live[1] + " bytes still live at shutdown");
            }
        }
    }

    public VkInstance instance() { return instance; }
    public VkPhysicalDevice physicalDevice() { return physicalDevice; }
    public VkDevice device() { return device; }
    public VkQueue queue() { return queue; }
    /** The async compute queue, or null when the device offers no second queue (lavapipe) or the device is a renderer's. */
    public VkQueue asyncQueue() { return asyncQueue; }
    /** The async compute queue's family, -1 without one. */
    public int asyncQueueFamily() { return asyncQueueFamily; }

    /**
     * Submits a batch to the main queue ({@code async} false) or the async compute queue, holding that
     * queue's lock; {@code what} names it in errors. Without an async queue both go to the main queue.
     */
    public void submitBatch(boolean async, VkSubmitInfo2.Buffer submit, String what) {
        if (deviceLost) {
            check(VK_ERROR_DEVICE_LOST, what + " (vkQueueSubmit2 not called: the device was lost at " + lostAt + ")");
        }
        boolean second = async && asyncQueue != null;
        Lock lock = second ? asyncQueueLock : queueLock;
        int result;
        lock.lock();
        try {
            result = vkQueueSubmit2(second ? asyncQueue : queue, submit, VK_NULL_HANDLE);
        } finally {
            lock.unlock();
        }
        if (result == VK_ERROR_DEVICE_LOST) {
            markLost(what + " (vkQueueSubmit2)");
        }
        check(result, what + " (vkQueueSubmit2)");
    }
    public int queueFamily() { return queueFamily; }
    public long allocator() { return allocator; }
    public long timeline() { return timeline; }
    public DeviceInfo info() { return info; }
    /** The features Tally's own device was created with; null for a wrapped device (its host reports them). */
    public HostFeatures enabledFeatures() { return enabledFeatures; }
    /** Whether the VMA allocator is Tally's own (its own device, or a wrapped one given none). */
    public boolean ownsAllocator() { return ownsAllocator; }
    public ContextOptions options() { return options; }
    /**
     * vkAcquireNextImageKHR, or VK_ERROR_OUT_OF_DATE_KHR when {@link ContextOptions#faults()} says this
     * acquire is to be out of date.
     */
    public int acquireNextImage(long swapchain, long timeoutNs, long semaphore, IntBuffer index) {
        if (faults.acquireOutOfDate()) {
            return KHRSwapchain.VK_ERROR_OUT_OF_DATE_KHR;
        }
        return KHRSwapchain.vkAcquireNextImageKHR(device, swapchain, timeoutNs, semaphore, VK_NULL_HANDLE, index);
    }

    /**
     * vkQueuePresentKHR under the {@link #queueLock()}; a successful present is reported as
     * VK_SUBOPTIMAL_KHR when {@link ContextOptions#faults()} says so.
     */
    public int present(VkPresentInfoKHR info) {
        int r;
        queueLock.lock();
        try {
            r = KHRSwapchain.vkQueuePresentKHR(queue, info);
        } finally {
            queueLock.unlock();
        }
        return r == VK_SUCCESS && faults.presentSuboptimal() ? KHRSwapchain.VK_SUBOPTIMAL_KHR : r;
    }

    /** The injector of {@link ContextOptions#faults()}: tests read its counters. */
    FaultInjector faults() { return faults; }
    public ValidationLog validationLog() { return validationLog; }
    public boolean debugUtils() { return debugUtils; }
    public synchronized long lastSubmitted() { return lastSubmitted; }
    /** Every CPU wait on this context's GPU work, by kind and cause. */
    public Waits waits() { return waits; }
    /** The lock held around every submit and present on {@link #queue()}. */
    public Lock queueLock() { return queueLock; }
    public int pendingDestructions() { return destroyer.pending(); }
}

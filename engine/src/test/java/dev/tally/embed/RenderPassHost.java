package dev.tally.embed;

import dev.tally.Tally;
import dev.tally.vk.HostFeatures;
import dev.tally.vk.Requirements;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.EXTDebugUtils.*;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_API_VERSION_1_3;

/**
 * A second host, in the older style: raw LWJGL with its own instance (validation and synchronization
 * validation, a messenger that keeps every message), a device made with Tally's feature chain merged
 * into its own ({@code Tally.requirements().enableIn}), no VMA (Tally makes its own allocator), its HDR
 * target in memory from {@code vkAllocateMemory} with COLOR_ATTACHMENT | SAMPLED usage (no STORAGE), drawn
 * by a {@code VkRenderPass} (a clear), submitted with {@code vkQueueSubmit}, {@code FRAMES_IN_FLIGHT}
 * command buffers and fences.
 */
final class RenderPassHost implements AutoCloseable {
    static final int FRAMES_IN_FLIGHT = 3;
    static final int FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
    static final int USAGE = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;

    final List<String> messages = Collections.synchronizedList(new ArrayList<>());
    final int width;
    final int height;
    private final VkDebugUtilsMessengerCallbackEXT callback;
    private final VkInstance instance;
    private final long messenger;
    private final VkPhysicalDevice physicalDevice;
    private final int queueFamily;
    private final VkDevice device;
    private final HostFeatures enabled;
    private final VkQueue queue;
    private final long pool;
    private final VkCommandBuffer[] buffers = new VkCommandBuffer[FRAMES_IN_FLIGHT];
    private final long[] fences = new long[FRAMES_IN_FLIGHT];
    final long image;
    private final long memory;
    private final long view;
    private final long renderPass;
    private final long framebuffer;

    RenderPassHost(int width, int height) {
        this.width = width;
        this.height = height;
        try (MemoryStack stack = stackPush()) {
            callback = VkDebugUtilsMessengerCallbackEXT.create((severity, types, data, user) -> {
                messages.add(VkDebugUtilsMessengerCallbackDataEXT.create(data).pMessageString());
                return VK_FALSE;
            });
            VkDebugUtilsMessengerCreateInfoEXT messengerInfo = VkDebugUtilsMessengerCreateInfoEXT.calloc(stack).sType$Default()
                    .messageSeverity(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                    .messageType(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                            | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)
                    .pfnUserCallback(callback);
            VkValidationFeaturesEXT features = VkValidationFeaturesEXT.calloc(stack).sType$Default()
                    .pEnabledValidationFeatures(stack.ints(VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT));
            features.pNext(messengerInfo.address());
            VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default().pNext(features.address())
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default().apiVersion(VK_API_VERSION_1_3))
                    .ppEnabledLayerNames(stack.pointers(stack.UTF8("VK_LAYER_KHRONOS_validation")))
                    .ppEnabledExtensionNames(stack.pointers(stack.UTF8(VK_EXT_DEBUG_UTILS_EXTENSION_NAME),
                            stack.UTF8(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)));
            PointerBuffer p = stack.mallocPointer(1);
            check(vkCreateInstance(info, null, p), "vkCreateInstance");
            instance = new VkInstance(p.get(0), info);
            LongBuffer l = stack.mallocLong(1);
            check(vkCreateDebugUtilsMessengerEXT(instance, messengerInfo, null, l), "vkCreateDebugUtilsMessengerEXT");
            messenger = l.get(0);

            IntBuffer count = stack.ints(1);
            PointerBuffer first = stack.mallocPointer(1);
            int r = vkEnumeratePhysicalDevices(instance, count, first);
            if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
                check(r, "vkEnumeratePhysicalDevices");
            }
            physicalDevice = new VkPhysicalDevice(first.get(0), instance);
            queueFamily = graphicsComputeFamily(stack);

            // The host's own chain (core features only), with Tally's merged in.
            VkPhysicalDeviceFeatures2 chain = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default();
            Tally.requirements().enableIn(chain, stack, EnumSet.of(Requirements.Part.GRAPH, Requirements.Part.AUTO_EXPOSURE,
                    Requirements.Part.READBACK));
            VkDeviceCreateInfo deviceInfo = VkDeviceCreateInfo.calloc(stack).sType$Default().pNext(chain.address())
                    .pQueueCreateInfos(VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default().queueFamilyIndex(queueFamily)
                            .pQueuePriorities(stack.floats(1f)));
            check(vkCreateDevice(physicalDevice, deviceInfo, null, p), "vkCreateDevice");
            device = new VkDevice(p.get(0), physicalDevice, deviceInfo, VK_API_VERSION_1_3);
            enabled = HostFeatures.of(deviceInfo);
            vkGetDeviceQueue(device, queueFamily, 0, p);
            queue = new VkQueue(p.get(0), device);

            check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).queueFamilyIndex(queueFamily), null, l), "vkCreateCommandPool");
            pool = l.get(0);
            PointerBuffer cbs = stack.mallocPointer(FRAMES_IN_FLIGHT);
            check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default().commandPool(pool)
                    .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(FRAMES_IN_FLIGHT), cbs), "vkAllocateCommandBuffers");
            for (int i = 0; i < FRAMES_IN_FLIGHT; i++) {
                buffers[i] = new VkCommandBuffer(cbs.get(i), device);
                check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default().flags(VK_FENCE_CREATE_SIGNALED_BIT), null, l),
                        "vkCreateFence");
                fences[i] = l.get(0);
            }

            check(vkCreateImage(device, VkImageCreateInfo.calloc(stack).sType$Default().imageType(VK_IMAGE_TYPE_2D).format(FORMAT)
                    .extent(e -> e.width(width).height(height).depth(1)).mipLevels(1).arrayLayers(1).samples(VK_SAMPLE_COUNT_1_BIT)
                    .tiling(VK_IMAGE_TILING_OPTIMAL).usage(USAGE).sharingMode(VK_SHARING_MODE_EXCLUSIVE)
                    .initialLayout(VK_IMAGE_LAYOUT_UNDEFINED), null, l), "vkCreateImage");
            image = l.get(0);
            VkMemoryRequirements req = VkMemoryRequirements.malloc(stack);
            vkGetImageMemoryRequirements(device, image, req);
            check(vkAllocateMemory(device, VkMemoryAllocateInfo.calloc(stack).sType$Default().allocationSize(req.size())
                    .memoryTypeIndex(deviceLocalType(req.memoryTypeBits(), stack)), null, l), "vkAllocateMemory");
            memory = l.get(0);
            check(vkBindImageMemory(device, image, memory, 0), "vkBindImageMemory");
            check(vkCreateImageView(device, VkImageViewCreateInfo.calloc(stack).sType$Default().image(image).viewType(VK_IMAGE_VIEW_TYPE_2D)
                    .format(FORMAT).subresourceRange(s -> s.aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1)), null, l),
                    "vkCreateImageView");
            view = l.get(0);

            // Cleared each frame (its old contents discarded), left in COLOR_ATTACHMENT_OPTIMAL for Tally.
            VkAttachmentDescription.Buffer attachment = VkAttachmentDescription.calloc(1, stack).format(FORMAT).samples(VK_SAMPLE_COUNT_1_BIT)
                    .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR).storeOp(VK_ATTACHMENT_STORE_OP_STORE)
                    .stencilLoadOp(VK_ATTACHMENT_LOAD_OP_DONT_CARE).stencilStoreOp(VK_ATTACHMENT_STORE_OP_DONT_CARE)
                    .initialLayout(VK_IMAGE_LAYOUT_UNDEFINED).finalLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            VkSubpassDescription.Buffer subpass = VkSubpassDescription.calloc(1, stack).pipelineBindPoint(VK_PIPELINE_BIND_POINT_GRAPHICS)
                    .colorAttachmentCount(1).pColorAttachments(VkAttachmentReference.calloc(1, stack).attachment(0)
                            .layout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL));
            check(vkCreateRenderPass(device, VkRenderPassCreateInfo.calloc(stack).sType$Default().pAttachments(attachment).pSubpasses(subpass),
                    null, l), "vkCreateRenderPass");
            renderPass = l.get(0);
            check(vkCreateFramebuffer(device, VkFramebufferCreateInfo.calloc(stack).sType$Default().renderPass(renderPass)
                    .pAttachments(stack.longs(view)).width(width).height(height).layers(1), null, l), "vkCreateFramebuffer");
            framebuffer = l.get(0);
        }
    }

    private int graphicsComputeFamily(MemoryStack stack) {
        IntBuffer n = stack.mallocInt(1);
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, n, null);
        VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(n.get(0), stack);
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, n, families);
        for (int i = 0; i < families.capacity(); i++) {
            int flags = families.get(i).queueFlags();
            if ((flags & VK_QUEUE_GRAPHICS_BIT) != 0 && (flags & VK_QUEUE_COMPUTE_BIT) != 0) {
                return i;
            }
        }
        throw new IllegalStateException("no graphics+compute queue family");
    }

    private int deviceLocalType(int bits, MemoryStack stack) {
        VkPhysicalDeviceMemoryProperties props = VkPhysicalDeviceMemoryProperties.malloc(stack);
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, props);
        for (int i = 0; i < props.memoryTypeCount(); i++) {
            if ((bits & (1 << i)) != 0 && (props.memoryTypes(i).propertyFlags() & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0) {
                return i;
            }
        }
        throw new IllegalStateException("no device-local memory type for the image");
    }

    /** What Tally runs on: no VMA allocator (0), no queue lock, debug utils on. */
    Tally.Host host() {
        return new Tally.Host(instance, physicalDevice, device, queue, queueFamily, NULL, null, true, enabled);
    }

    VkDevice device() {
        return device;
    }

    /** Frame {@code f}'s command buffer, begun once the frame that used it last has finished (its fence): three frames in flight. */
    VkCommandBuffer begin(long f) {
        int slot = (int) (f % FRAMES_IN_FLIGHT);
        try (MemoryStack stack = stackPush()) {
            check(vkWaitForFences(device, stack.longs(fences[slot]), true, 60_000_000_000L), "vkWaitForFences");
            check(vkResetFences(device, stack.longs(fences[slot])), "vkResetFences");
            check(vkResetCommandBuffer(buffers[slot], 0), "vkResetCommandBuffer");
            check(vkBeginCommandBuffer(buffers[slot], VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
        }
        return buffers[slot];
    }

    /** The host's scene: a render pass that clears the target to {@code level} (an attachment write). */
    void draw(VkCommandBuffer cmd, float level) {
        try (MemoryStack stack = stackPush()) {
            VkClearValue.Buffer clear = VkClearValue.calloc(1, stack);
            clear.get(0).color().float32(0, level).float32(1, level).float32(2, level).float32(3, 1);
            vkCmdBeginRenderPass(cmd, VkRenderPassBeginInfo.calloc(stack).sType$Default().renderPass(renderPass).framebuffer(framebuffer)
                    .renderArea(a -> a.extent().width(width).height(height)).pClearValues(clear), VK_SUBPASS_CONTENTS_INLINE);
            vkCmdEndRenderPass(cmd);
        }
    }

    /** Ends and submits with {@code vkQueueSubmit}; {@code addSignal} adds Tally's timeline signal to the VkSubmitInfo. */
    void submit(long f, VkCommandBuffer cmd, java.util.function.BiConsumer<VkSubmitInfo, MemoryStack> addSignal) {
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        try (MemoryStack stack = stackPush()) {
            VkSubmitInfo submit = VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(stack.pointers(cmd));
            addSignal.accept(submit, stack);
            check(vkQueueSubmit(queue, submit, fences[(int) (f % FRAMES_IN_FLIGHT)]), "vkQueueSubmit");
        }
    }

    void idle() {
        check(vkDeviceWaitIdle(device), "vkDeviceWaitIdle");
    }

    /** Destroys everything, the instance last, so that the layer's reports on destruction are kept too. */
    @Override
    public void close() {
        idle();
        vkDestroyFramebuffer(device, framebuffer, null);
        vkDestroyRenderPass(device, renderPass, null);
        vkDestroyImageView(device, view, null);
        vkDestroyImage(device, image, null);
        vkFreeMemory(device, memory, null);
        for (long fence : fences) {
            vkDestroyFence(device, fence, null);
        }
        vkDestroyCommandPool(device, pool, null);
        vkDestroyDevice(device, null);
        vkDestroyDebugUtilsMessengerEXT(instance, messenger, null);
        vkDestroyInstance(instance, null);
        callback.free();
    }
}

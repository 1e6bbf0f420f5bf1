package dev.tally.internal.vk;

import dev.tally.vk.GpuImage;

import dev.tally.vk.VulkanException;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.vulkan.VkImageCreateInfo;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkImageViewCreateInfo;

import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A 2D color image with one mip level and a view. Owned images are VMA allocations; wrapped images
 * (swapchain images, a renderer's own) are only seen, and closing them destroys just Tally's view.
 */
public final class TrackedImage implements GpuImage {
    private final VulkanContext ctx;
    private final String name;
    private final long image;
    private final long allocation;
    private final long view;
    private final boolean ownsView;
    private final int format;
    private final int width;
    private final int height;
    private final int usage;
    private final long serial;
    private boolean closed;
    /** Where the work recorded so far left this image, kept for its whole life: a frame graph starts from it. */
    private ResourceState state = ResourceState.UNUSED;

    private TrackedImage(VulkanContext ctx, String name, long image, long allocation, long view, boolean ownsView, int format,
                     int width, int height, int usage) {
        this.ctx = ctx;
        this.name = name;
        this.image = image;
        this.allocation = allocation;
        this.view = view;
        this.ownsView = ownsView;
        this.format = format;
        this.width = width;
        this.height = height;
        this.usage = usage;
        this.serial = ctx.nextSerial();
    }

    /** A new device-local image. */
    public static TrackedImage create(VulkanContext ctx, String name, int width, int height, int format, int usage) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("image '" + name + "': extent must be positive, got " + width + "x" + height);
        }
        try (MemoryStack stack = stackPush()) {
            VkImageCreateInfo info = VkImageCreateInfo.calloc(stack).sType$Default().imageType(VK_IMAGE_TYPE_2D).format(format)
                    .mipLevels(1).arrayLayers(1).samples(VK_SAMPLE_COUNT_1_BIT).tiling(VK_IMAGE_TILING_OPTIMAL)
                    .usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE).initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
            info.extent().set(width, height, 1);
            VmaAllocationCreateInfo alloc = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO);
            LongBuffer pImage = stack.mallocLong(1);
            PointerBuffer pAlloc = stack.mallocPointer(1);
            int result = vmaCreateImage(ctx.allocator(), info, alloc, pImage, pAlloc, null);
            if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) {
                throw new VulkanException(result, "allocating image '" + name + "' " + width + "x" + height + " (budget "
                        + TrackedBuffer.budgetDescription(ctx) + ")");
            }
            check(result, "vmaCreateImage('" + name + "')");
            vmaSetAllocationName(ctx.allocator(), pAlloc.get(0), name);   // named at close if it is still live then
            long view;
            try {
                view = createView(ctx, pImage.get(0), format);
            } catch (RuntimeException e) {
                vmaDestroyImage(ctx.allocator(), pImage.get(0), pAlloc.get(0));
                throw e;
            }
            ctx.nameObject(VK_OBJECT_TYPE_IMAGE, pImage.get(0), name);
            return new TrackedImage(ctx, name, pImage.get(0), pAlloc.get(0), view, true, format, width, height, usage);
        }
    }

    /** A caller-owned image (a swapchain image): Tally makes a view, never destroys the image. */
    public static TrackedImage wrap(VulkanContext ctx, String name, long image, int width, int height, int format, int usage) {
        return new TrackedImage(ctx, name, image, NULL, createView(ctx, image, format), true, format, width, height, usage);
    }

    static long createView(VulkanContext ctx, long image, int format) {
        try (MemoryStack stack = stackPush()) {
            VkImageViewCreateInfo info = VkImageViewCreateInfo.calloc(stack).sType$Default().image(image)
                    .viewType(VK_IMAGE_VIEW_TYPE_2D).format(format);
            info.subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).baseMipLevel(0).levelCount(1).baseArrayLayer(0).layerCount(1);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateImageView(ctx.device(), info, null, p), "vkCreateImageView");
            return p.get(0);
        }
    }

    public long handle() { return image; }
    public long view() { return view; }
    public int format() { return format; }
    public int width() { return width; }
    public int height() { return height; }
    public int usage() { return usage; }
    public String name() { return name; }
    public long serial() { return serial; }

    /** The state the GPU work recorded so far leaves this image in (UNUSED before any). */
    public ResourceState state() { return state; }

    /** Told by whoever records work on this image (the frame graph, after each frame): where that work leaves it. */
    public void state(ResourceState state) {
        if (state == null) {
            throw new IllegalArgumentException("image '" + name + "': state must not be null");
        }
        this.state = state;
    }

    /** Whether {@link #close} ran: the image is destroyed once the GPU is done with it, and may not be used again. */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        ctx.requireOpen("image '" + name + "'");   // its memory went with the device: freeing it would touch freed memory
        closed = true;
        long i = image, a = allocation, v = view;
        boolean destroyView = ownsView;
        long allocator = ctx.allocator();
        ctx.defer(() -> {
            if (destroyView) {
                vkDestroyImageView(ctx.device(), v, null);
            }
            if (a != NULL) {
                vmaDestroyImage(allocator, i, a);
            }
        });
    }

    /** The implementation behind {@code image}: one made by Tally (internal code hands back what Tally issued). */
    public static TrackedImage of(GpuImage image) {
        return of(image, "bind", image == null ? "null" : image.name());
    }

    /** The implementation behind a {@link GpuImage} a caller hands back; anything else is refused in one line. */
    public static TrackedImage of(GpuImage image, String op, String name) {
        if (image instanceof TrackedImage t) {
            if (t.isClosed()) {
                // Its Vulkan object is destroyed (or about to be): recording with it would touch freed memory.
                throw new IllegalStateException(op + " '" + name + "': image '" + t.name() + "' was closed (it, or the node or ring that made it);"
                        + " a closed object cannot be used again");
            }
            return t;
        }
        if (image == null) {
            throw new IllegalArgumentException(op + " '" + name + "': the image is null");
        }
        throw new IllegalArgumentException(op + " '" + name + "': image '" + image.name() + "' was not made by Tally; wrap it with Tally.wrapImage");
    }
}

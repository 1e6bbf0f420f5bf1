package dev.tally.internal.graph;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.vk.VulkanException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Creates the Vulkan objects of a topology's transients: one VMA allocation per memory slot of the plan,
 * and a VkBuffer or VkImage per transient bound into it (aliases share memory). Keeps nothing but a count.
 */
final class TransientAllocator {
    private final VulkanContext ctx;
    private long objectsCreated;

    TransientAllocator(VulkanContext ctx) {
        this.ctx = ctx;
    }

    /** Vulkan objects created so far (flat in steady state). */
    long objectsCreated() {
        return objectsCreated;
    }

    /** Allocates the slots of {@code plan} and creates every transient of {@code g} in them; nothing is left behind on failure. */
    Transients create(GraphDeclaration g, GraphPlan plan, boolean poison) {
        Transients p = new Transients(plan, poison, g.resources.size());
        try (MemoryStack stack = stackPush()) {
            for (int s = 0; s < plan.slots().size(); s++) {
                GraphPlan.Slot slot = plan.slots().get(s);
                long size = 0, alignment = 1;
                int typeBits = -1;
                for (int id : slot.members()) {
                    VkMemoryRequirements req = requirements(stack, g.resources.get(id), poison);
                    size = Math.max(size, req.size());
                    alignment = Math.max(alignment, req.alignment());
                    typeBits &= req.memoryTypeBits();
                }
                if (typeBits == 0) {
                    throw new VulkanException("transient slot " + s + ": members need incompatible memory types");
                }
                VkMemoryRequirements req = VkMemoryRequirements.calloc(stack).set(size, alignment, typeBits);
                // AUTO usages need a buffer or image description; plain memory states its preference.
                VmaAllocationCreateInfo info = VmaAllocationCreateInfo.calloc(stack).preferredFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
                PointerBuffer pAlloc = stack.mallocPointer(1);
                int r = vmaAllocateMemory(ctx.allocator(), req, info, pAlloc, null);
                if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
                    release(p);
                    throw new VulkanException(r, "allocating " + size + " bytes for transients " + names(g, slot));
                }
                check(r, "vmaAllocateMemory(transients)");
                vmaSetAllocationName(ctx.allocator(), pAlloc.get(0), "transients");
                p.slotAllocations[s] = pAlloc.get(0);
                for (int id : slot.members()) {
                    p.objects[id] = create(stack, p, g.resources.get(id), pAlloc.get(0), poison);
                }
            }
        } catch (RuntimeException e) {
            release(p);
            throw e;
        }
        return p;
    }

    private static String names(GraphDeclaration g, GraphPlan.Slot slot) {
        List<String> n = new ArrayList<>();
        slot.members().forEach(id -> n.add("'" + g.resources.get(id).name + "'"));
        return String.join(", ", n);
    }

    private VkMemoryRequirements requirements(MemoryStack stack, GraphResource r, boolean poison) {
        VkMemoryRequirements2 out = VkMemoryRequirements2.calloc(stack).sType$Default();
        if (r.image) {
            vkGetDeviceImageMemoryRequirements(ctx.device(), VkDeviceImageMemoryRequirements.calloc(stack).sType$Default()
                    .pCreateInfo(imageInfo(stack, r.imageDesc, poison)), out);
        } else {
            vkGetDeviceBufferMemoryRequirements(ctx.device(), VkDeviceBufferMemoryRequirements.calloc(stack).sType$Default()
                    .pCreateInfo(bufferInfo(stack, r.bufferDesc, poison)), out);
        }
        return out.memoryRequirements();
    }

    private static VkBufferCreateInfo bufferInfo(MemoryStack stack, BufferDesc d, boolean poison) {
        return VkBufferCreateInfo.calloc(stack).sType$Default().size(d.size()).usage(d.usage() | (poison ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : 0)).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
    }

    private static VkImageCreateInfo imageInfo(MemoryStack stack, ImageDesc d, boolean poison) {
        VkImageCreateInfo info = VkImageCreateInfo.calloc(stack).sType$Default().imageType(VK_IMAGE_TYPE_2D).format(d.format())
                .mipLevels(1).arrayLayers(1).samples(VK_SAMPLE_COUNT_1_BIT).tiling(VK_IMAGE_TILING_OPTIMAL).usage(d.usage() | (poison ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0))
                .sharingMode(VK_SHARING_MODE_EXCLUSIVE).initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
        info.extent().set(d.width(), d.height(), 1);
        return info;
    }

    private Object create(MemoryStack stack, Transients p, GraphResource r, long allocation, boolean poison) {
        LongBuffer out = stack.mallocLong(1);
        objectsCreated++;
        if (r.image) {
            check(vmaCreateAliasingImage(ctx.allocator(), allocation, imageInfo(stack, r.imageDesc, poison), out), "vmaCreateAliasingImage('" + r.name + "')");
            long image = out.get(0);
            p.rawImages.add(image);
            ctx.nameObject(VK_OBJECT_TYPE_IMAGE, image, r.name);
            TrackedImage wrapped = TrackedImage.wrap(ctx, r.name, image, r.imageDesc.width(), r.imageDesc.height(), r.imageDesc.format(),
                    r.imageDesc.usage());
            return wrapped;
        }
        // Out of memory names the size and the budget, as every other buffer allocation does.
        check(vmaCreateAliasingBuffer(ctx.allocator(), allocation, bufferInfo(stack, r.bufferDesc, poison), out), "vmaCreateAliasingBuffer('" + r.name
                + "', " + r.bufferDesc.size() + " bytes, budget " + ctx.deviceMemoryBudget().describe() + ")");
        long buffer = out.get(0);
        p.rawBuffers.add(buffer);
        ctx.nameObject(VK_OBJECT_TYPE_BUFFER, buffer, r.name);
        return TrackedBuffer.wrap(ctx, r.name, buffer, r.bufferDesc.size());
    }

    /** Destroys {@code p}'s objects and frees its memory, deferred past the frames that may still use them. */
    void release(Transients p) {
        for (Object o : p.objects) {
            if (o instanceof TrackedImage img) {
                img.close(); // destroys the view only (wrapped image)
            }
        }
        List<Long> buffers = new ArrayList<>(p.rawBuffers);
        List<Long> images = new ArrayList<>(p.rawImages);
        long[] allocations = p.slotAllocations.clone();
        long allocator = ctx.allocator();
        VkDevice device = ctx.device();
        ctx.defer(() -> {
            buffers.forEach(b -> vkDestroyBuffer(device, b, null));
            images.forEach(i -> vkDestroyImage(device, i, null));
            for (long a : allocations) {
                if (a != 0) {
                    vmaFreeMemory(allocator, a);
                }
            }
        });
    }
}

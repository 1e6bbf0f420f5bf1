package dev.tally.internal.vk;

import dev.tally.vk.GpuBuffer;

import dev.tally.vk.VulkanException;

import dev.tally.vk.MemoryKind;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocationInfo;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.vulkan.VkBufferCreateInfo;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

/** A VkBuffer with its VMA allocation. Closing defers destruction until the GPU is done with it. */
public final class TrackedBuffer implements GpuBuffer {
    private final VulkanContext ctx;
    private final String name;
    private final long handle;
    private final long allocation;
    private final long size;
    /** The VkBufferUsageFlags it was created with; 0 for a wrapped buffer, whose usage Tally was not told. */
    private final int usage;
    private final long serial;
    private final boolean owned;
    private final long mapped;
    private final boolean coherent;
    private boolean closed;
    /** Where the work recorded so far left this buffer, kept for its whole life: a frame graph starts from it. */
    private ResourceState state = ResourceState.UNUSED;

    public TrackedBuffer(VulkanContext ctx, String name, long size, int usage, MemoryKind kind) {
        if (size <= 0) {
            // Zero-size buffers are invalid in Vulkan; callers with no data must take their own path.
            throw new IllegalArgumentException("buffer '" + name + "': size must be positive, got " + size);
        }
        this.ctx = ctx;
        this.name = name;
        this.size = size;
        this.usage = usage;
        this.serial = ctx.nextSerial();
        this.owned = true;
        try (MemoryStack stack = stackPush()) {
            VkBufferCreateInfo bufferInfo = VkBufferCreateInfo.calloc(stack).sType$Default()
                    .size(size).usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            VmaAllocationCreateInfo allocInfo = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO);
            switch (kind) {
                case DEVICE -> allocInfo.flags(0);
                case DEVICE_FILLED -> allocInfo.flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_SEQUENTIAL_WRITE_BIT
                        | VMA_ALLOCATION_CREATE_HOST_ACCESS_ALLOW_TRANSFER_INSTEAD_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
                case UPLOAD -> allocInfo.flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_SEQUENTIAL_WRITE_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
                case READBACK -> allocInfo.flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT)
                        .preferredFlags(VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
            }
            LongBuffer pBuffer = stack.mallocLong(1);
            PointerBuffer pAlloc = stack.mallocPointer(1);
            VmaAllocationInfo info = VmaAllocationInfo.calloc(stack);
            int result = vmaCreateBuffer(ctx.allocator(), bufferInfo, allocInfo, pBuffer, pAlloc, info);
            if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) {
                throw new VulkanException(result, "allocating buffer '" + name + "' of " + size + " bytes (budget "
                        + budgetDescription(ctx) + ")");
            }
            check(result, "vmaCreateBuffer('" + name + "', " + size + " bytes)");
            handle = pBuffer.get(0);
            allocation = pAlloc.get(0);
            vmaSetAllocationName(ctx.allocator(), allocation, name);   // named at close if it is still live then
            mapped = info.pMappedData();
            java.nio.IntBuffer flags = stack.mallocInt(1);
            vmaGetAllocationMemoryProperties(ctx.allocator(), allocation, flags);
            coherent = (flags.get(0) & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
        }
        ctx.nameObject(VK_OBJECT_TYPE_BUFFER, handle, name);
    }

    private TrackedBuffer(VulkanContext ctx, String name, long handle, long size) {
        this.ctx = ctx;
        this.name = name;
        this.handle = handle;
        this.size = size;
        this.usage = 0;
        this.serial = ctx.nextSerial();
        this.owned = false;
        this.allocation = NULL;
        this.mapped = NULL;
        this.coherent = true;
    }

    /** A caller-owned VkBuffer seen by Tally; closing it does not destroy the buffer. */
    public static TrackedBuffer wrap(VulkanContext ctx, String name, long handle, long size) {
        return new TrackedBuffer(ctx, name, handle, size);
    }

    /** The device-local heap budget as "used/limit MiB", for out-of-memory messages. */
    static String budgetDescription(VulkanContext ctx) {
        try (MemoryStack stack = stackPush()) {
            VmaBudget.Buffer budgets = VmaBudget.calloc(VK_MAX_MEMORY_HEAPS, stack);
            vmaGetHeapBudgets(ctx.allocator(), budgets);
            long usage = budgets.get(0).usage();
            long budget = budgets.get(0).budget();
            return (usage >> 20) + " MiB used of " + (budget >> 20) + " MiB";
        }
    }

    public long handle() { return handle; }
    /** Unique for this buffer's lifetime, unlike the handle, which Vulkan may reuse after destruction. */
    public long serial() { return serial; }
    public long size() { return size; }
    /** {@return the usage it was created with, or 0 when Tally was not told (a wrapped buffer)} */
    public int usage() { return usage; }
    public String name() { return name; }
    public boolean isMapped() { return mapped != NULL; }
    /** Closed by its owner (its destruction may still be deferred): no new commands may use it. */
    public boolean isClosed() { return closed; }

    /** The persistently mapped pointer; only for UPLOAD and READBACK buffers (or host-visible device memory). */
    public long mappedAddress() {
        if (mapped == NULL) {
            throw new IllegalStateException("buffer '" + name + "' is not host-visible");
        }
        return mapped;
    }

    /** Makes GPU writes visible to host reads on non-coherent memory (no-op when coherent). */
    public void invalidate(long offset, long bytes) {
        if (!coherent) {
            vmaInvalidateAllocation(ctx.allocator(), allocation, offset, bytes);
        }
    }

    /** Makes host writes visible to the GPU on non-coherent memory (no-op when coherent). */
    public void flush(long offset, long bytes) {
        if (!coherent) {
            vmaFlushAllocation(ctx.allocator(), allocation, offset, bytes);
        }
    }

    /** Copies {@code data} (position..limit) to the start of a mapped buffer. */
    public void write(ByteBuffer data, long offset) {
        if (offset + data.remaining() > size) {
            throw new IllegalArgumentException("write of " + data.remaining() + " bytes at " + offset + " overflows buffer '" + name + "' (" + size + " bytes)");
        }
        MemoryUtil.memCopy(MemoryUtil.memAddress(data), mappedAddress() + offset, data.remaining());
        flush(offset, data.remaining());
    }

    /** The state the GPU work recorded so far leaves this buffer in (UNUSED before any). */
    public ResourceState state() { return state; }

    /** Told by whoever records work on this buffer (the frame graph, after each frame): where that work leaves it. */
    public void state(ResourceState state) {
        if (state == null) {
            throw new IllegalArgumentException("buffer '" + name + "': state must not be null");
        }
        this.state = state;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        ctx.requireOpen("buffer '" + name + "'");   // its memory went with the device: freeing it would touch freed memory
        closed = true;
        if (!owned) {
            return;
        }
        long h = handle;
        long a = allocation;
        long allocator = ctx.allocator();
        ctx.defer(() -> vmaDestroyBuffer(allocator, h, a));
    }

    /** The implementation behind {@code buffer}: one made by Tally (internal code hands back what Tally issued). */
    public static TrackedBuffer of(GpuBuffer buffer) {
        return of(buffer, "bind", buffer == null ? "null" : buffer.name());
    }

    /** The implementation behind a {@link GpuBuffer} a caller hands back; anything else is refused in one line. */
    public static TrackedBuffer of(GpuBuffer buffer, String op, String name) {
        if (buffer instanceof TrackedBuffer t) {
            if (t.isClosed()) {
                // Its Vulkan object is destroyed (or about to be): recording with it would touch freed memory.
                throw new IllegalStateException(op + " '" + name + "': buffer '" + t.name() + "' was closed (it, or the node or ring that made it);"
                        + " a closed object cannot be used again");
            }
            return t;
        }
        if (buffer == null) {
            throw new IllegalArgumentException(op + " '" + name + "': the buffer is null");
        }
        throw new IllegalArgumentException(op + " '" + name + "': buffer '" + buffer.name() + "' was not made by Tally; wrap it with Tally.wrapBuffer");
    }
}

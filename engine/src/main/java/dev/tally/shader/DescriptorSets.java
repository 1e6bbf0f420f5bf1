package dev.tally.shader;

import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.tally.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Storage-buffer descriptor sets for one pipeline, made once per distinct binding and then reused:
 * in steady state a frame binds the same buffers, so it allocates nothing.
 */
public final class DescriptorSets implements AutoCloseable {
    /** One bound range of a buffer, in bytes. Keyed by the buffer's serial: handles are reused. */
    public record Range(long serial, long buffer, long offset, long size) {
        public static Range of(dev.tally.vk.GpuBuffer b, long offset, long size) {
            return new Range(b.serial(), b.handle(), offset, size);
        }
    }

    private final VulkanContext ctx;
    private final ComputePipeline pipeline;
    private final int capacity;
    private final long pool;
    private long evictions;
    // Access order gives least-recently-used eviction when buffers come and go (tools, tests).
    private final Map<List<Range>, Long> sets = new java.util.LinkedHashMap<>(16, 0.75f, true);

    public DescriptorSets(VulkanContext ctx, ComputePipeline pipeline, int capacity) {
        this.ctx = ctx;
        this.pipeline = pipeline;
        this.capacity = capacity;
        try (MemoryStack stack = stackPush()) {
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack)
                    .type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(2 * capacity * pipeline.bindings());
            // Twice the cache: evicted sets are freed only once the GPU is done with them.
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateDescriptorPool(ctx.device(), VkDescriptorPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT).maxSets(2 * capacity).pPoolSizes(sizes), null, p), "vkCreateDescriptorPool(" + pipeline.name() + ")");
            pool = p.get(0);
        }
    }

    /** The set binding {@code ranges} to bindings 0..n-1, created on first use. */
    public long get(List<Range> ranges) {
        Long existing = sets.get(ranges);
        if (existing != null) {
            return existing;
        }
        if (sets.size() == capacity) {
            var eldest = sets.entrySet().iterator().next();
            long stale = eldest.getValue();
            sets.remove(eldest.getKey());
            evictions++;
            // The set may still be referenced by a command buffer in flight: free it once the GPU is done.
            ctx.defer(() -> vkFreeDescriptorSets(ctx.device(), pool, stale));
        }
        try (MemoryStack stack = stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(vkAllocateDescriptorSets(ctx.device(), VkDescriptorSetAllocateInfo.calloc(stack).sType$Default()
                    .descriptorPool(pool).pSetLayouts(stack.longs(pipeline.setLayout())), p), "vkAllocateDescriptorSets");
            long set = p.get(0);
            VkWriteDescriptorSet.Buffer writes = VkWriteDescriptorSet.calloc(ranges.size(), stack);
            for (int i = 0; i < ranges.size(); i++) {
                Range r = ranges.get(i);
                writes.get(i).sType$Default().dstSet(set).dstBinding(i).descriptorCount(1)
                        .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                        .pBufferInfo(VkDescriptorBufferInfo.calloc(1, stack).buffer(r.buffer()).offset(r.offset()).range(r.size()));
            }
            vkUpdateDescriptorSets(ctx.device(), writes, null);
            sets.put(List.copyOf(ranges), set);
            return set;
        }
    }

    /** Sets dropped to make room: non-zero in steady state means bindings change every frame. */
    public long evictions() {
        return evictions;
    }

    public int size() {
        return sets.size();
    }

    @Override
    public void close() {
        long p = pool;
        ctx.defer(() -> vkDestroyDescriptorPool(ctx.device(), p, null));
    }
}

package dev.tally.internal.shader;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Storage-buffer descriptor sets for one pipeline, made once per distinct binding and then reused:
 * in steady state a frame binds the same buffers, so it allocates nothing.
 */
public final class DescriptorSets implements AutoCloseable {
    /** What one binding holds. */
    public sealed interface Binding permits Range, Sampled, StorageImage {
    }

    /** A storage image, accessed in GENERAL layout. */
    public record StorageImage(long serial, long view) implements Binding {
        public static StorageImage of(dev.tally.vk.GpuImage image) {
            return new StorageImage(dev.tally.internal.vk.TrackedImage.of(image).serial(), image.view());
        }
    }

    /** One bound range of a storage buffer, in bytes. Keyed by the buffer's serial: handles are reused. */
    public record Range(long serial, long buffer, long offset, long size) implements Binding {
        public static Range of(dev.tally.vk.GpuBuffer b, long offset, long size) {
            return new Range(dev.tally.internal.vk.TrackedBuffer.of(b).serial(), b.handle(), offset, size);
        }
    }

    /** A sampled image (combined with a sampler), read in SHADER_READ_ONLY_OPTIMAL layout. */
    public record Sampled(long serial, long view, long sampler) implements Binding {
        public static Sampled of(dev.tally.vk.GpuImage image, long sampler) {
            return new Sampled(dev.tally.internal.vk.TrackedImage.of(image).serial(), image.view(), sampler);
        }
    }

    private final VulkanContext ctx;
    private final String pipelineName;
    private final long setLayout;
    private final int capacity;
    private final long pool;
    private long evictions;
    private long recentHits;
    // Access order gives least-recently-used eviction when buffers come and go (tools, tests).
    private final Map<Key, Long> sets = new java.util.LinkedHashMap<>(16, 0.75f, true);
    /** The last sets found or made, asked first. Eviction passes over them (their uses do not refresh the map's order). */
    private final RecentSets recent = new RecentSets();
    /** The lookup key for {@link #get}, pointed at the caller's bindings: a lookup allocates no key. */
    private final Key probe = new Key();
    /** {@link #get(List)}'s records, rewritten into the one form the cache keys on. */
    private final Bindings fromRecords = new Bindings();

    /** Bindings as a map key, compared entry by entry. */
    private static final class Key {
        private Bindings bindings;
        private int hash;

        Key point(Bindings b) {
            bindings = b;
            hash = b.contentHash();
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && k.bindings.sameAs(bindings);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    public DescriptorSets(VulkanContext ctx, ComputePipeline pipeline, int capacity) {
        this(ctx, pipeline.name(), pipeline.setLayout(), pipeline.bindings(), capacity);
    }

    public DescriptorSets(VulkanContext ctx, String pipelineName, long setLayout, int bindings, int capacity) {
        this.ctx = ctx;
        this.pipelineName = pipelineName;
        this.setLayout = setLayout;
        this.capacity = capacity;
        try (MemoryStack stack = stackPush()) {
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(3, stack);
            sizes.get(0).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(2 * capacity * bindings);
            sizes.get(1).type(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER).descriptorCount(2 * capacity * bindings);
            sizes.get(2).type(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE).descriptorCount(2 * capacity * bindings);
            // Twice the cache: evicted sets are freed only once the GPU is done with them.
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateDescriptorPool(ctx.device(), VkDescriptorPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT).maxSets(2 * capacity).pPoolSizes(sizes), null, p), "vkCreateDescriptorPool(" + pipelineName + ")");
            pool = p.get(0);
        }
    }

    /** The set binding {@code ranges} to bindings 0..n-1, created on first use. */
    public long get(List<? extends Binding> ranges) {
        fromRecords.clear();
        for (int i = 0; i < ranges.size(); i++) {
            Binding b = ranges.get(i);
            if (b instanceof Range r) {
                fromRecords.add(Bindings.RANGE, r.serial(), r.buffer(), r.offset(), r.size());
            } else if (b instanceof StorageImage img) {
                fromRecords.add(Bindings.STORAGE_IMAGE, img.serial(), img.view(), 0, 0);
            } else if (b instanceof Sampled img) {
                fromRecords.add(Bindings.SAMPLED, img.serial(), img.view(), img.sampler(), 0);
            }
        }
        return get(fromRecords);
    }

    /** The set binding {@code bindings} to bindings 0..n-1, created on first use; in steady state a lookup allocates nothing. */
    public long get(Bindings bindings) {
        long found = recent.find(bindings);
        if (found != VK_NULL_HANDLE) {
            recentHits++;
            return found;
        }
        Long existing = sets.get(probe.point(bindings));
        probe.bindings = null;   // the caller's bindings are not kept
        if (existing != null) {
            recent.remember(bindings, existing);
            return existing;
        }
        if (sets.size() == capacity) {
            evictOne();
        }
        try (MemoryStack stack = stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(vkAllocateDescriptorSets(ctx.device(), VkDescriptorSetAllocateInfo.calloc(stack).sType$Default()
                    .descriptorPool(pool).pSetLayouts(stack.longs(setLayout)), p), "vkAllocateDescriptorSets");
            long set = p.get(0);
            ctx.countObject();
            VkWriteDescriptorSet.Buffer writes = VkWriteDescriptorSet.calloc(bindings.size(), stack);
            for (int i = 0; i < bindings.size(); i++) {
                VkWriteDescriptorSet w = writes.get(i).sType$Default().dstSet(set).dstBinding(i).descriptorCount(1);
                switch (bindings.kind(i)) {
                    case Bindings.RANGE -> w.descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo(VkDescriptorBufferInfo.calloc(1, stack)
                            .buffer(bindings.handle(i)).offset(bindings.offset(i)).range(bindings.byteSize(i)));
                    case Bindings.STORAGE_IMAGE -> w.descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                            .pImageInfo(VkDescriptorImageInfo.calloc(1, stack).imageView(bindings.handle(i)).imageLayout(VK_IMAGE_LAYOUT_GENERAL));
                    case Bindings.SAMPLED -> w.descriptorType(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
                            .pImageInfo(VkDescriptorImageInfo.calloc(1, stack).sampler(bindings.offset(i)).imageView(bindings.handle(i))
                                    .imageLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
                    default -> throw new IllegalStateException("internal: binding kind " + bindings.kind(i));
                }
            }
            vkUpdateDescriptorSets(ctx.device(), writes, null);
            sets.put(new Key().point(bindings.copy()), set);
            recent.remember(bindings, set);
            return set;
        }
    }

    /** Drops the least recently used set not among the recent ones (the eldest where all are), freed once the GPU is done. */
    private void evictOne() {
        Map.Entry<Key, Long> victim = null;
        for (Map.Entry<Key, Long> e : sets.entrySet()) {
            if (victim == null) {
                victim = e;
            }
            if (!recent.holds(e.getValue())) {
                victim = e;
                break;
            }
        }
        long stale = victim.getValue();
        sets.remove(victim.getKey());
        recent.forget(stale);
        evictions++;
        // The set may still be referenced by a command buffer in flight: free it once the GPU is done.
        ctx.defer(() -> vkFreeDescriptorSets(ctx.device(), pool, stale));
    }

    /** Lookups answered by the recent entries, without the map. */
    public long recentHits() {
        return recentHits;
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

package dev.tally.shader;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

/**
 * What one dispatch binds to bindings 0..n-1, in order, written in place: a pass keeps one (from
 * {@link ComputeKernel#bindings()}) and refills it every frame with {@code clear().buffer(...).storageImage(...)},
 * so binding allocates nothing. The kernel caches a descriptor set per distinct list.
 */
public interface KernelBindings {
    /** {@return this, emptied for the next dispatch} */
    KernelBindings clear();

    /**
     * Appends a range of a storage buffer.
     *
     * @param buffer     a buffer Tally made or wraps
     * @param byteOffset where the range starts
     * @param byteSize   its length in bytes
     * @return this
     */
    KernelBindings buffer(GpuBuffer buffer, long byteOffset, long byteSize);

    /**
     * Appends a storage image, accessed in GENERAL layout.
     *
     * @param image an image Tally made or wraps (a graph pass's: {@code PassContext.image(handle)})
     * @return this
     */
    KernelBindings storageImage(GpuImage image);

    /**
     * Appends a sampled image with its sampler, read in SHADER_READ_ONLY_OPTIMAL layout.
     *
     * @param image   an image Tally made or wraps
     * @param sampler the VkSampler
     * @return this
     */
    KernelBindings sampled(GpuImage image, long sampler);

    /** {@return how many bindings are set} */
    int size();
}

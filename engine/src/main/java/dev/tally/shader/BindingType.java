package dev.tally.shader;

import static org.lwjgl.vulkan.VK10.*;

/** Kinds of set-0 bindings a pipeline declares, in binding order. */
public enum BindingType {
    /** A range of a storage buffer ({@code VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}). */
    STORAGE_BUFFER(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
    /** An image with its sampler, read in SHADER_READ_ONLY_OPTIMAL ({@code VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}). */
    SAMPLED_IMAGE(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
    /** A storage image in GENERAL layout ({@code VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}). */
    STORAGE_IMAGE(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);

    private final int descriptorType;

    BindingType(int descriptorType) {
        this.descriptorType = descriptorType;
    }

    /** {@return the VkDescriptorType of this kind} */
    public int descriptorType() {
        return descriptorType;
    }
}

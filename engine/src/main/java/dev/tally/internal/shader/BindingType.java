package dev.tally.internal.shader;

import static org.lwjgl.vulkan.VK10.*;

/** Kinds of set-0 bindings a pipeline declares, in binding order. */
public enum BindingType {
    STORAGE_BUFFER(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
    SAMPLED_IMAGE(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
    STORAGE_IMAGE(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);

    final int vk;

    BindingType(int vk) {
        this.vk = vk;
    }
}

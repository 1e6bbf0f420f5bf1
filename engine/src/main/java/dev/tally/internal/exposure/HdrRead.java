package dev.tally.internal.exposure;

import dev.tally.graph.Access;
import dev.tally.shader.BindingType;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_SAMPLED_BIT;
import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_STORAGE_BIT;

/**
 * How the histogram reads the HDR image, chosen by the usage the image was created (or wrapped) with: as a
 * storage image where it has STORAGE usage, else through a sampler with texelFetch (most engines' scene
 * colour is SAMPLED only, and many GPUs cannot store B10G11R11). The same texels either way.
 */
enum HdrRead {
    STORAGE(Access.COMPUTE_READ, BindingType.STORAGE_IMAGE),
    SAMPLED(Access.COMPUTE_SAMPLED, BindingType.SAMPLED_IMAGE);

    private final Access access;
    private final BindingType binding;

    HdrRead(Access access, BindingType binding) {
        this.access = access;
        this.binding = binding;
    }

    /** The read for an image of {@code usage}; one line naming the usage to add when it has neither. */
    static HdrRead of(int usage, String pass, String image) {
        if ((usage & VK_IMAGE_USAGE_STORAGE_BIT) != 0) {
            return STORAGE;
        }
        if ((usage & VK_IMAGE_USAGE_SAMPLED_BIT) != 0) {
            return SAMPLED;
        }
        throw new IllegalArgumentException(pass + ": image '" + image + "' has neither VK_IMAGE_USAGE_SAMPLED_BIT nor VK_IMAGE_USAGE_STORAGE_BIT"
                + " (usage 0x" + Integer.toHexString(usage) + "); add VK_IMAGE_USAGE_SAMPLED_BIT where it is created and in the usage given to"
                + " TrackedImage.wrap");
    }

    /** The access the histogram pass declares: it sets the layout the graph transitions the image to. */
    Access access() {
        return access;
    }

    BindingType binding() {
        return binding;
    }
}

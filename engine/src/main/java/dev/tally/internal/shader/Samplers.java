package dev.tally.internal.shader;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkSamplerCreateInfo;

import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/** A clamp-to-edge sampler (nearest or linear), owned by the caller. */
public final class Samplers {
    private Samplers() {
    }

    public static long create(VulkanContext ctx, boolean linear) {
        try (MemoryStack stack = stackPush()) {
            int filter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSampler(ctx.device(), VkSamplerCreateInfo.calloc(stack).sType$Default().magFilter(filter).minFilter(filter)
                    .addressModeU(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).addressModeV(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                    .addressModeW(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE).maxLod(0f), null, p), "vkCreateSampler");
            return p.get(0);
        }
    }

    public static void destroy(VulkanContext ctx, long sampler) {
        ctx.defer(() -> vkDestroySampler(ctx.device(), sampler, null));
    }
}

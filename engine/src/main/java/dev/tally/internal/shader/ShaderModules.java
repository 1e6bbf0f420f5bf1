package dev.tally.internal.shader;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.vkCreateShaderModule;

/**
 * Shader modules from SPIR-V. The code goes to the driver from heap memory, not the thread's MemoryStack: a module is
 * made once per pipeline, off the frame path, and SPIR-V grows past the stack's 64 KiB (a kernel with large unrolled
 * loops or tables), which on the stack failed as "Out of stack space".
 */
final class ShaderModules {
    private ShaderModules() {
    }

    /** A module of {@code spirv}; {@code what} names it in an error. The caller destroys it. */
    static long create(VkDevice device, byte[] spirv, String what) {
        ByteBuffer code = MemoryUtil.memAlloc(spirv.length);
        try (MemoryStack stack = stackPush()) {
            code.put(spirv).flip();
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateShaderModule(device, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(code), null, p),
                    "vkCreateShaderModule(" + what + ")");
            return p.get(0);
        } finally {
            MemoryUtil.memFree(code);
        }
    }
}

package dev.tally.internal.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.EXTDebugUtils;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDebugUtilsLabelEXT;
import org.lwjgl.vulkan.VkDebugUtilsObjectNameInfoEXT;
import org.lwjgl.vulkan.VkDevice;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.EXTDebugUtils.*;

/** Object names and command-buffer labels (VK_EXT_debug_utils) that show in validation messages and captures; nothing without the extension. */
public final class DebugNames {
    private final VkDevice device;
    private final boolean enabled;

    DebugNames(VkDevice device, boolean enabled) {
        this.device = device;
        this.enabled = enabled;
    }

    /** Whether names and labels reach Vulkan (VK_EXT_debug_utils enabled). */
    public boolean enabled() {
        return enabled;
    }

    /** Gives a Vulkan object a name that shows in validation messages and captures. */
    public void nameObject(int objectType, long handle, String name) {
        if (!enabled || handle == NULL) {
            return;
        }
        try (MemoryStack stack = stackPush()) {
            VkDebugUtilsObjectNameInfoEXT nameInfo = VkDebugUtilsObjectNameInfoEXT.calloc(stack).sType$Default()
                    .objectType(objectType).objectHandle(handle).pObjectName(stack.UTF8(name));
            vkSetDebugUtilsObjectNameEXT(device, nameInfo);
        }
    }

    public void beginLabel(VkCommandBuffer cmd, String name) {
        if (!enabled) {
            return;
        }
        // By address (the label struct and the UTF-8 name on the stack): once per pass, without wrapper objects.
        try (MemoryStack stack = stackPush()) {
            long label = asciiOrUtf8(stack, name);
            long info = stack.ncalloc(VkDebugUtilsLabelEXT.ALIGNOF, 1, VkDebugUtilsLabelEXT.SIZEOF);
            VkDebugUtilsLabelEXT.nsType(info, EXTDebugUtils.VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT);
            MemoryUtil.memPutAddress(info + VkDebugUtilsLabelEXT.PLABELNAME, label);
            nvkCmdBeginDebugUtilsLabelEXT(cmd, info);
        }
    }

    public void endLabel(VkCommandBuffer cmd) {
        if (enabled) {
            vkCmdEndDebugUtilsLabelEXT(cmd);
        }
    }

    /** {@code s} as a NUL-terminated string on the stack: ASCII byte by byte (no wrapper object), anything else as UTF-8. */
    private static long asciiOrUtf8(MemoryStack stack, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                stack.nUTF8(s, true);
                return stack.getPointerAddress();
            }
        }
        long at = stack.nmalloc(1, s.length() + 1);
        for (int i = 0; i < s.length(); i++) {
            MemoryUtil.memPutByte(at + i, (byte) s.charAt(i));
        }
        MemoryUtil.memPutByte(at + s.length(), (byte) 0);
        return at;
    }
}

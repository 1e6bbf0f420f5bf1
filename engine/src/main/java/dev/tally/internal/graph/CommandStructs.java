package dev.tally.internal.graph;

import dev.tally.internal.vk.TrackedImage;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;


import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The rendering info of a graphics pass, written by address on the stack (static setters): no wrapper
 * object per pass. A frame's barriers are {@link BarrierStructs}'.
 */
final class CommandStructs {
    private CommandStructs() {
    }

    /** Begins dynamic rendering into pass {@code p}'s colour attachments (cleared or loaded, stored). */
    static void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, int width, int height) {
        try (MemoryStack stack = stackPush()) {
            int n = p.attachments.size();
            long attachments = stack.ncalloc(VkRenderingAttachmentInfo.ALIGNOF, n, VkRenderingAttachmentInfo.SIZEOF);
            for (int i = 0; i < n; i++) {
                Pass.Attachment a = p.attachments.get(i);
                long x = attachments + (long) VkRenderingAttachmentInfo.SIZEOF * i;
                VkRenderingAttachmentInfo.nsType(x, VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
                VkRenderingAttachmentInfo.nimageView(x, ((TrackedImage) objects[a.resource()]).view());
                VkRenderingAttachmentInfo.nimageLayout(x, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
                VkRenderingAttachmentInfo.nstoreOp(x, VK_ATTACHMENT_STORE_OP_STORE);
                if (a.clear() != null) {
                    VkRenderingAttachmentInfo.nloadOp(x, VK_ATTACHMENT_LOAD_OP_CLEAR);
                    long color = x + VkRenderingAttachmentInfo.CLEARVALUE;   // VkClearColorValue.float32 at offset 0
                    for (int c = 0; c < 4; c++) {
                        MemoryUtil.memPutFloat(color + 4L * c, a.clear()[c]);
                    }
                } else {
                    VkRenderingAttachmentInfo.nloadOp(x, VK_ATTACHMENT_LOAD_OP_LOAD);
                }
            }
            long info = stack.ncalloc(VkRenderingInfo.ALIGNOF, 1, VkRenderingInfo.SIZEOF);
            VkRenderingInfo.nsType(info, VK_STRUCTURE_TYPE_RENDERING_INFO);
            VkRenderingInfo.nlayerCount(info, 1);
            VkRenderingInfo.ncolorAttachmentCount(info, n);
            MemoryUtil.memPutAddress(info + VkRenderingInfo.PCOLORATTACHMENTS, attachments);
            long area = info + VkRenderingInfo.RENDERAREA;
            VkExtent2D.nwidth(area + VkRect2D.EXTENT, width);
            VkExtent2D.nheight(area + VkRect2D.EXTENT, height);
            nvkCmdBeginRendering(cmd, info);
        }
    }
}

package dev.tally.internal.graph;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;

import java.util.List;
import java.util.function.IntUnaryOperator;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The Vulkan structs the graph records, written by address on the stack (static setters): a frame's
 * barrier lists and a graphics pass's rendering info cost no wrapper object.
 */
final class CommandStructs {
    private CommandStructs() {
    }

    /**
     * Records {@code specs} as one vkCmdPipelineBarrier2. {@code objects} holds each resource's buffer or
     * image by id; {@code familyOf} maps a lane to its queue family (IGNORED for lane -1).
     */
    static void pipelineBarrier(VkCommandBuffer cmd, List<BarrierSpec> specs, Object[] objects, IntUnaryOperator familyOf) {
        try (MemoryStack stack = stackPush()) {
            int buffers = 0, images = 0, memory = 0;
            for (int k = 0; k < specs.size(); k++) {
                BarrierSpec b = specs.get(k);
                if (b.aliasing()) {
                    memory++;
                }
                if (b.image()) {
                    images++;
                } else if (!b.aliasing()) {
                    buffers++;
                }
            }
            long bb = buffers > 0 ? stack.ncalloc(VkBufferMemoryBarrier2.ALIGNOF, buffers, VkBufferMemoryBarrier2.SIZEOF) : 0;
            long ib = images > 0 ? stack.ncalloc(VkImageMemoryBarrier2.ALIGNOF, images, VkImageMemoryBarrier2.SIZEOF) : 0;
            long mb = memory > 0 ? stack.ncalloc(VkMemoryBarrier2.ALIGNOF, memory, VkMemoryBarrier2.SIZEOF) : 0;
            int bi = 0, ii = 0, mi = 0;
            for (int k = 0; k < specs.size(); k++) {
                BarrierSpec b = specs.get(k);
                if (b.aliasing()) {
                    // Memory changes hands between aliased transients: order against the previous occupant.
                    long m = mb + (long) VkMemoryBarrier2.SIZEOF * mi++;
                    VkMemoryBarrier2.nsType(m, VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
                    VkMemoryBarrier2.nsrcStageMask(m, b.srcStages());
                    VkMemoryBarrier2.nsrcAccessMask(m, b.srcAccess());
                    VkMemoryBarrier2.ndstStageMask(m, b.dstStages());
                    VkMemoryBarrier2.ndstAccessMask(m, b.dstAccess());
                }
                if (b.image()) {
                    long x = ib + (long) VkImageMemoryBarrier2.SIZEOF * ii++;
                    VkImageMemoryBarrier2.nsType(x, VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2);
                    VkImageMemoryBarrier2.nsrcStageMask(x, b.srcStages());
                    VkImageMemoryBarrier2.nsrcAccessMask(x, b.srcAccess());
                    VkImageMemoryBarrier2.ndstStageMask(x, b.dstStages());
                    VkImageMemoryBarrier2.ndstAccessMask(x, b.dstAccess());
                    VkImageMemoryBarrier2.noldLayout(x, b.oldLayout());
                    VkImageMemoryBarrier2.nnewLayout(x, b.newLayout());
                    VkImageMemoryBarrier2.nsrcQueueFamilyIndex(x, familyOf.applyAsInt(b.fromLane()));
                    VkImageMemoryBarrier2.ndstQueueFamilyIndex(x, familyOf.applyAsInt(b.toLane()));
                    VkImageMemoryBarrier2.nimage(x, ((TrackedImage) objects[b.resource()]).handle());
                    long range = x + VkImageMemoryBarrier2.SUBRESOURCERANGE;
                    VkImageSubresourceRange.naspectMask(range, VK_IMAGE_ASPECT_COLOR_BIT);
                    VkImageSubresourceRange.nlevelCount(range, 1);
                    VkImageSubresourceRange.nlayerCount(range, 1);
                } else if (!b.aliasing()) {
                    long x = bb + (long) VkBufferMemoryBarrier2.SIZEOF * bi++;
                    VkBufferMemoryBarrier2.nsType(x, VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2);
                    VkBufferMemoryBarrier2.nsrcStageMask(x, b.srcStages());
                    VkBufferMemoryBarrier2.nsrcAccessMask(x, b.srcAccess());
                    VkBufferMemoryBarrier2.ndstStageMask(x, b.dstStages());
                    VkBufferMemoryBarrier2.ndstAccessMask(x, b.dstAccess());
                    VkBufferMemoryBarrier2.nsrcQueueFamilyIndex(x, familyOf.applyAsInt(b.fromLane()));
                    VkBufferMemoryBarrier2.ndstQueueFamilyIndex(x, familyOf.applyAsInt(b.toLane()));
                    VkBufferMemoryBarrier2.nbuffer(x, ((TrackedBuffer) objects[b.resource()]).handle());
                    VkBufferMemoryBarrier2.noffset(x, 0);
                    VkBufferMemoryBarrier2.nsize(x, VK_WHOLE_SIZE);
                }
            }
            long dep = stack.ncalloc(VkDependencyInfo.ALIGNOF, 1, VkDependencyInfo.SIZEOF);
            VkDependencyInfo.nsType(dep, VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
            VkDependencyInfo.nbufferMemoryBarrierCount(dep, buffers);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PBUFFERMEMORYBARRIERS, bb);
            VkDependencyInfo.nimageMemoryBarrierCount(dep, images);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PIMAGEMEMORYBARRIERS, ib);
            VkDependencyInfo.nmemoryBarrierCount(dep, memory);
            MemoryUtil.memPutAddress(dep + VkDependencyInfo.PMEMORYBARRIERS, mb);
            nvkCmdPipelineBarrier2(cmd, dep);
        }
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

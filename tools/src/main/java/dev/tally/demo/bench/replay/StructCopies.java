package dev.tally.demo.bench.replay;

import org.lwjgl.vulkan.*;

import static org.lwjgl.system.MemoryUtil.memGetAddress;
import static org.lwjgl.system.MemoryUtil.memGetByte;
import static org.lwjgl.system.MemoryUtil.memPutAddress;

/**
 * Deep copies of what a captured command's pointer arguments point to, into the capture's arena: the
 * caller's structs live on its MemoryStack and are gone once the call returns. Chains ({@code pNext}) are
 * refused: no command of a frame has one, and a copy that dropped it would replay a different command.
 */
final class StructCopies {
    private StructCopies() {
    }

    /** Replaces the pointer arguments in {@code a} (the op's arguments after the command buffer) by copies. */
    static void copyArguments(StreamOp op, long[] a, CopyArena arena) {
        switch (op) {
            case PIPELINE_BARRIER_2 -> a[0] = dependencyInfo(a[0], arena);
            case BIND_DESCRIPTOR_SETS -> {
                a[4] = arena.copy(a[4], 8L * a[3]);
                a[6] = arena.copy(a[6], 4L * a[5]);
            }
            case PUSH_CONSTANTS -> a[4] = arena.copy(a[4], a[3]);
            case SET_VIEWPORT -> a[2] = arena.copy(a[2], (long) VkViewport.SIZEOF * a[1]);
            case SET_SCISSOR -> a[2] = arena.copy(a[2], (long) VkRect2D.SIZEOF * a[1]);
            case BEGIN_RENDERING -> a[0] = renderingInfo(a[0], arena);
            case COPY_BUFFER -> a[3] = arena.copy(a[3], (long) VkBufferCopy.SIZEOF * a[2]);
            case COPY_IMAGE_TO_BUFFER, COPY_BUFFER_TO_IMAGE -> a[4] = arena.copy(a[4], (long) VkBufferImageCopy.SIZEOF * a[3]);
            case UPDATE_BUFFER -> a[3] = arena.copy(a[3], a[2]);
            case CLEAR_COLOR_IMAGE -> {
                a[2] = arena.copy(a[2], VkClearColorValue.SIZEOF);
                a[4] = arena.copy(a[4], (long) VkImageSubresourceRange.SIZEOF * a[3]);
            }
            case BEGIN_LABEL -> a[0] = label(a[0], arena);
            case BIND_PIPELINE, DISPATCH, DRAW, END_RENDERING, FILL_BUFFER, RESET_QUERY_POOL, HOST_RESET_QUERY_POOL, WRITE_TIMESTAMP_2, END_LABEL -> {
            }
        }
    }

    private static long dependencyInfo(long src, CopyArena arena) {
        noChain(src, VkDependencyInfo.PNEXT, "VkDependencyInfo");
        long dst = arena.copy(src, VkDependencyInfo.SIZEOF);
        array(dst, VkDependencyInfo.PMEMORYBARRIERS, VkDependencyInfo.nmemoryBarrierCount(src), VkMemoryBarrier2.SIZEOF,
                VkMemoryBarrier2.PNEXT, "VkMemoryBarrier2", arena);
        array(dst, VkDependencyInfo.PBUFFERMEMORYBARRIERS, VkDependencyInfo.nbufferMemoryBarrierCount(src), VkBufferMemoryBarrier2.SIZEOF,
                VkBufferMemoryBarrier2.PNEXT, "VkBufferMemoryBarrier2", arena);
        array(dst, VkDependencyInfo.PIMAGEMEMORYBARRIERS, VkDependencyInfo.nimageMemoryBarrierCount(src), VkImageMemoryBarrier2.SIZEOF,
                VkImageMemoryBarrier2.PNEXT, "VkImageMemoryBarrier2", arena);
        return dst;
    }

    private static long renderingInfo(long src, CopyArena arena) {
        noChain(src, VkRenderingInfo.PNEXT, "VkRenderingInfo");
        long dst = arena.copy(src, VkRenderingInfo.SIZEOF);
        array(dst, VkRenderingInfo.PCOLORATTACHMENTS, VkRenderingInfo.ncolorAttachmentCount(src), VkRenderingAttachmentInfo.SIZEOF,
                VkRenderingAttachmentInfo.PNEXT, "VkRenderingAttachmentInfo", arena);
        array(dst, VkRenderingInfo.PDEPTHATTACHMENT, 1, VkRenderingAttachmentInfo.SIZEOF, VkRenderingAttachmentInfo.PNEXT,
                "VkRenderingAttachmentInfo", arena);
        array(dst, VkRenderingInfo.PSTENCILATTACHMENT, 1, VkRenderingAttachmentInfo.SIZEOF, VkRenderingAttachmentInfo.PNEXT,
                "VkRenderingAttachmentInfo", arena);
        return dst;
    }

    private static long label(long src, CopyArena arena) {
        noChain(src, VkDebugUtilsLabelEXT.PNEXT, "VkDebugUtilsLabelEXT");
        long dst = arena.copy(src, VkDebugUtilsLabelEXT.SIZEOF);
        long name = memGetAddress(src + VkDebugUtilsLabelEXT.PLABELNAME);
        int length = 0;
        while (memGetByte(name + length) != 0) {
            length++;
        }
        memPutAddress(dst + VkDebugUtilsLabelEXT.PLABELNAME, arena.copy(name, length + 1L));
        return dst;
    }

    /** Copies the {@code count} elements the pointer at {@code struct + field} points to and points the copy's field at them. */
    private static void array(long struct, int field, long count, int elementSize, int pNext, String type, CopyArena arena) {
        long src = memGetAddress(struct + field);
        if (src == 0 || count == 0) {
            return;
        }
        for (int i = 0; i < count; i++) {
            noChain(src + (long) elementSize * i, pNext, type);
        }
        memPutAddress(struct + field, arena.copy(src, (long) elementSize * count));
    }

    private static void noChain(long struct, int pNext, String type) {
        if (memGetAddress(struct + pNext) != 0) {
            throw new IllegalStateException("internal: a captured " + type + " has a pNext chain, which the command-stream capture does not copy");
        }
    }
}

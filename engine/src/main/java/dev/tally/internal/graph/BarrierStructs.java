package dev.tally.internal.graph;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferMemoryBarrier2;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDependencyInfo;
import org.lwjgl.vulkan.VkImageMemoryBarrier2;
import org.lwjgl.vulkan.VkImageSubresourceRange;
import org.lwjgl.vulkan.VkMemoryBarrier2;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The vkCmdPipelineBarrier2 structs of a frame's barrier points, by the point's place in the frame, in memory of their
 * own. A frame of a known topology records the very barrier lists the frame before did (its cached plan's), so a point
 * builds its structs when its list is another than last time, and otherwise writes only the resources' handles again
 * (a readback ring's slot, say, is another buffer each frame). Owned by the backend that records; freed when it closes.
 */
final class BarrierStructs implements AutoCloseable {
    /** One barrier point: the list its structs were built for, their memory, and where each resource's handle goes. */
    private static final class Point {
        private List<BarrierSpec> builtFor;
        private long memory;
        private long bytes;
        private long dependencyInfo;
        private int handles;
        private int[] resource = new int[8];
        private boolean[] image = new boolean[8];
        private long[] handleAt = new long[8];
    }

    private Point[] points = new Point[32];

    /**
     * Records {@code specs} (not empty) as one vkCmdPipelineBarrier2 at barrier point {@code position} of the frame.
     * {@code objects} holds each resource's buffer or image by id; {@code familyOf} maps a lane to its queue family.
     */
    void record(VkCommandBuffer cmd, int position, List<BarrierSpec> specs, Object[] objects, IntUnaryOperator familyOf) {
        if (position >= points.length) {
            points = Arrays.copyOf(points, Math.max(position + 1, 2 * points.length));
        }
        Point p = points[position];
        if (p == null) {
            p = points[position] = new Point();
        }
        if (p.builtFor != specs) {
            build(p, specs, familyOf);
        }
        for (int i = 0; i < p.handles; i++) {
            Object o = objects[p.resource[i]];
            MemoryUtil.memPutLong(p.handleAt[i], p.image[i] ? ((TrackedImage) o).handle() : ((TrackedBuffer) o).handle());
        }
        nvkCmdPipelineBarrier2(cmd, p.dependencyInfo);
    }

    private static void build(Point p, List<BarrierSpec> specs, IntUnaryOperator familyOf) {
        p.builtFor = null;   // until built whole
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
        // One block: the dependency info, then the buffer, image and memory barriers (each struct's size a multiple of 8).
        long bufferBytes = (long) buffers * VkBufferMemoryBarrier2.SIZEOF, imageBytes = (long) images * VkImageMemoryBarrier2.SIZEOF;
        long bytes = VkDependencyInfo.SIZEOF + bufferBytes + imageBytes + (long) memory * VkMemoryBarrier2.SIZEOF;
        if (bytes > p.bytes) {
            if (p.memory != 0) {
                MemoryUtil.nmemAlignedFree(p.memory);
            }
            p.memory = MemoryUtil.nmemAlignedAlloc(16, bytes);
            if (p.memory == 0) {
                p.bytes = 0;
                throw new OutOfMemoryError("barrier structs: " + bytes + " bytes");
            }
            p.bytes = bytes;
        }
        MemoryUtil.memSet(p.memory, 0, bytes);
        int handles = buffers + images;
        if (p.resource.length < handles) {
            p.resource = new int[Math.max(handles, 2 * p.resource.length)];
            p.image = new boolean[p.resource.length];
            p.handleAt = new long[p.resource.length];
        }
        long dep = p.memory;
        long bb = dep + VkDependencyInfo.SIZEOF, ib = bb + bufferBytes, mb = ib + imageBytes;
        int bi = 0, ii = 0, mi = 0, h = 0;
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
                long range = x + VkImageMemoryBarrier2.SUBRESOURCERANGE;
                VkImageSubresourceRange.naspectMask(range, VK_IMAGE_ASPECT_COLOR_BIT);
                VkImageSubresourceRange.nlevelCount(range, 1);
                VkImageSubresourceRange.nlayerCount(range, 1);
                p.resource[h] = b.resource();
                p.image[h] = true;
                p.handleAt[h++] = x + VkImageMemoryBarrier2.IMAGE;
            } else if (!b.aliasing()) {
                long x = bb + (long) VkBufferMemoryBarrier2.SIZEOF * bi++;
                VkBufferMemoryBarrier2.nsType(x, VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2);
                VkBufferMemoryBarrier2.nsrcStageMask(x, b.srcStages());
                VkBufferMemoryBarrier2.nsrcAccessMask(x, b.srcAccess());
                VkBufferMemoryBarrier2.ndstStageMask(x, b.dstStages());
                VkBufferMemoryBarrier2.ndstAccessMask(x, b.dstAccess());
                VkBufferMemoryBarrier2.nsrcQueueFamilyIndex(x, familyOf.applyAsInt(b.fromLane()));
                VkBufferMemoryBarrier2.ndstQueueFamilyIndex(x, familyOf.applyAsInt(b.toLane()));
                VkBufferMemoryBarrier2.noffset(x, 0);
                VkBufferMemoryBarrier2.nsize(x, VK_WHOLE_SIZE);
                p.resource[h] = b.resource();
                p.image[h] = false;
                p.handleAt[h++] = x + VkBufferMemoryBarrier2.BUFFER;
            }
        }
        VkDependencyInfo.nsType(dep, VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
        VkDependencyInfo.nbufferMemoryBarrierCount(dep, buffers);
        MemoryUtil.memPutAddress(dep + VkDependencyInfo.PBUFFERMEMORYBARRIERS, buffers > 0 ? bb : 0);
        VkDependencyInfo.nimageMemoryBarrierCount(dep, images);
        MemoryUtil.memPutAddress(dep + VkDependencyInfo.PIMAGEMEMORYBARRIERS, images > 0 ? ib : 0);
        VkDependencyInfo.nmemoryBarrierCount(dep, memory);
        MemoryUtil.memPutAddress(dep + VkDependencyInfo.PMEMORYBARRIERS, memory > 0 ? mb : 0);
        p.dependencyInfo = dep;
        p.handles = h;
        p.builtFor = specs;
    }

    @Override
    public void close() {
        for (int i = 0; i < points.length; i++) {
            if (points[i] != null && points[i].memory != 0) {
                MemoryUtil.nmemAlignedFree(points[i].memory);
            }
            points[i] = null;
        }
    }
}

package dev.tally.internal.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkExtent3D;
import org.lwjgl.vulkan.VkImageSubresourceLayers;
import org.lwjgl.vulkan.VkOffset3D;

import java.util.function.BiConsumer;

import static dev.tally.internal.readback.ReadbackRingNode.HEADER_BYTES;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The pass of a capture: lays the sources out in the slot, declares the pass (a side effect, never culled) and records
 * the copies, then the frame's sequence number and the GPU timestamp after them. A capture whose every region
 * {@link #gathered} allows is a compute pass of {@link ReadbackGather} dispatches, which run beside the compute passes
 * before it; any other is a transfer pass of copy commands.
 */
final class CapturePass {
    private final String ringName;
    private final long capacity;
    private final CompletionTimes times;
    private long injectInvisibleAt = -1;
    /** Who hears every-frame samples: their destinations must hold what a capture lays out. */
    private final SampleHandOut subscribers;

    /** The execute step of every capture pass (one object for the ring's life). */
    private final BiConsumer<CaptureCopy, PassContext> recordStep = (c, pc) -> {
        if (!c.invisible) {
            recordCopies(pc, c);
        }
    };

    /** Null: transfer copies only. */
    private final ReadbackGather gather;

    CapturePass(String ringName, long capacity, CompletionTimes times, SampleHandOut subscribers, ReadbackGather gather) {
        this.gather = gather;
        this.ringName = ringName;
        this.capacity = capacity;
        this.times = times;
        this.subscribers = subscribers;
    }

    /** Test hook: frame {@code f}'s capture records no commands, so that the host sees the slot's previous contents. */
    void injectInvisibleWrite(long f) {
        injectInvisibleAt = f;
    }

    /**
     * Checks {@code sources}, lays them out in {@code slot}, marks the slot pending for this frame and adds the pass; an
     * every-frame capture ({@code everyFrame}) also checks that each subscriber's destination holds its sample.
     */
    void add(GraphDeclaration g, ReadbackSlot slot, SourceArrays sources, String passName, String targetName, boolean everyFrame) {
        SlotLayout layout = slot.layout;
        long total = 0;
        int count = sources.size();
        for (int i = 0; i < count; i++) {
            if (sources.isImage(i)) {
                ImageRegionCheck.check(ringName, g, sources.image(i), sources.x(i), sources.y(i), sources.width(i), sources.height(i));
                total += (long) sources.width(i) * sources.height(i) * TexelFormats.bytesPerTexel(g.desc(sources.image(i)).format());
            } else {
                checkRegion(g, sources.buffer(i), sources.offset(i), sources.bytes(i));
                total += sources.bytes(i);
            }
        }
        if (total > capacity) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': capture of " + total + " bytes exceeds the slot capacity " + capacity);
        }
        CaptureCopy copy = slot.copy;
        long[] offsets = copy.offsets;
        boolean compute = gathered(g, sources);
        layout.clear();
        for (int i = 0; i < count; i++) {
            // Gathered or copied, a texel lands in the image's own bytes: the layout is the same either way.
            offsets[i] = sources.isImage(i)
                    ? layout.addImage(g.desc(sources.image(i)).format(), sources.width(i) * sources.height(i))
                    : layout.addBuffer(sources.bytes(i));
        }
        if (everyFrame) {
            subscribers.checkRoom(ringName, layout.floatCount(), layout.payloadBytes());
        }
        slot.frame = g.frame();
        slot.timelineValue = g.timelineValue();
        slot.pendingSeenNanos = System.nanoTime();
        BufferHandle target = g.importBuffer(targetName, slot.buffer, Access.HOST_READ);
        g.addPass(passName, compute ? PassKind.COMPUTE : PassKind.TRANSFER, copy.set(sources, g.frame(), injectInvisibleAt == g.frame(), target, compute),
                recordStep);
    }

    /**
     * Whether the capture can be gathered by compute: there is a gather and at least one region, every buffer region's
     * source is known to allow storage use (a wrapped buffer's usage is not known), every image region's is a storage
     * image of a format {@link ReadbackGather#gathers}.
     */
    private boolean gathered(GraphDeclaration g, SourceArrays sources) {
        if (gather == null || sources.size() == 0) {
            return false;
        }
        for (int i = 0; i < sources.size(); i++) {
            if (sources.isImage(i)) {
                dev.tally.graph.ImageDesc d = g.desc(sources.image(i));
                if (!ReadbackGather.gathers(d.format()) || (d.usage() & VK_IMAGE_USAGE_STORAGE_BIT) == 0) {
                    return false;
                }
            } else if ((g.desc(sources.buffer(i)).usage() & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) == 0) {
                return false;
            }
        }
        return true;
    }

    /** A buffer region lies within its buffer and holds at least one whole float: checked here, not by a copy's validation message. */
    private void checkRegion(GraphDeclaration g, BufferHandle source, long offset, long bytes) {
        long size = g.desc(source).size();
        if (bytes <= 0 || bytes % 4 != 0 || offset < 0 || offset > size - bytes) {
            throw new IllegalArgumentException("readback ring '" + ringName + "': region of " + bytes + " bytes at offset " + offset
                    + " of buffer '" + g.name(source) + "' (" + size + " bytes); a region is whole floats (a multiple of 4 bytes, at least 4)"
                    + " inside its buffer");
        }
    }

    private void recordCopies(PassContext pc, CaptureCopy c) {
        SourceArrays sources = c.sources;
        long[] offsets = c.offsets;
        ReadbackSlot slot = c.slot;
        long capturedFrame = c.capturedFrame;
        long dst = pc.buffer(c.target).handle();
        times.reset(pc.cmd(), slot);
        if (c.compute) {
            gatherCopies(pc, c);
            times.write(pc.cmd(), slot);
            return;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            for (int i = 0; i < c.count; i++) {
                // The copy structs are written by address (static setters): no wrapper objects every frame.
                if (sources.isImage(i)) {
                    long copy = stack.ncalloc(VkBufferImageCopy.ALIGNOF, 1, VkBufferImageCopy.SIZEOF);
                    VkBufferImageCopy.nbufferOffset(copy, HEADER_BYTES + offsets[i]);
                    long layers = copy + VkBufferImageCopy.IMAGESUBRESOURCE;
                    VkImageSubresourceLayers.naspectMask(layers, VK_IMAGE_ASPECT_COLOR_BIT);
                    VkImageSubresourceLayers.nlayerCount(layers, 1);
                    long offset = copy + VkBufferImageCopy.IMAGEOFFSET;
                    VkOffset3D.nx(offset, sources.x(i));
                    VkOffset3D.ny(offset, sources.y(i));
                    long extent = copy + VkBufferImageCopy.IMAGEEXTENT;
                    VkExtent3D.nwidth(extent, sources.width(i));
                    VkExtent3D.nheight(extent, sources.height(i));
                    VkExtent3D.ndepth(extent, 1);
                    nvkCmdCopyImageToBuffer(pc.cmd(), pc.image((ImageHandle) c.read[i]).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            dst, 1, copy);
                } else {
                    long copy = stack.ncalloc(VkBufferCopy.ALIGNOF, 1, VkBufferCopy.SIZEOF);
                    VkBufferCopy.nsrcOffset(copy, sources.offset(i));
                    VkBufferCopy.ndstOffset(copy, HEADER_BYTES + offsets[i]);
                    VkBufferCopy.nsize(copy, sources.bytes(i));
                    nvkCmdCopyBuffer(pc.cmd(), pc.buffer((BufferHandle) c.read[i]).handle(), dst, 1, copy);
                }
            }
        }
        // The sequence number goes in after the payload, in the same pass: a host that sees it sees the payload
        // (the graph's barrier to HOST_READ covers both); one that sees an older number is looking at an older frame.
        vkCmdFillBuffer(pc.cmd(), dst, 0, 4, (int) capturedFrame);
        times.write(pc.cmd(), slot);
    }

    /** The capture as dispatches, one a region; the first also writes the sequence number (the host reads both after the frame). */
    private void gatherCopies(PassContext pc, CaptureCopy c) {
        dev.tally.vk.GpuBuffer dst = pc.buffer(c.target);
        int sequence = (int) c.capturedFrame;
        for (int i = 0; i < c.count; i++) {
            long at = HEADER_BYTES + c.offsets[i];
            SourceArrays s = c.sources;
            if (s.isImage(i)) {
                gather.copyTexels(pc.cmd(), pc.image((ImageHandle) c.read[i]), s.x(i), s.y(i), s.width(i), s.height(i), dst, at, sequence, i == 0);
            } else {
                gather.copyBuffer(pc.cmd(), pc.buffer((BufferHandle) c.read[i]), s.offset(i), dst, at, s.bytes(i), sequence, i == 0);
            }
        }
    }
}

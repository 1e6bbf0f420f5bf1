package dev.tally.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.vkCmdCopyBuffer;

/**
 * N host-visible slots that hand the CPU a GPU value from N frames ago without ever waiting.
 * <p>
 * Each frame: {@link #beginFrame} delivers the slot about to be reused (written N frames ago; with
 * N greater than the frames in flight its submission has always completed, which the timeline
 * counter confirms without a wait), {@link #capture} adds a transfer pass copying the sources into
 * slot {@code frame % N} with a barrier to host reads, and {@link #submitted} records the timeline
 * value of the frame's submission. {@link #latest()} returns the newest delivered sample.
 */
public final class ReadbackRing implements AutoCloseable {
    /** A region to capture: {@code bytes} from {@code offset} of {@code source}. */
    public record Region(BufferHandle source, long offset, long bytes) {
    }

    private static final class Slot {
        final GpuBuffer buffer;
        long frame = -1;
        long timelineValue = -1; // -1: captured but not yet submitted; 0: empty
        long bytes;
        int width;
        int height;

        Slot(GpuBuffer buffer) {
            this.buffer = buffer;
        }
    }

    private final VulkanContext ctx;
    private final String name;
    private final long capacity;
    private final Slot[] slots;
    private long frame = -1;
    private Slot pendingSubmit;
    private Sample latest;
    private long samples;
    private long notReady;
    private long blockingWaits;

    public ReadbackRing(VulkanContext ctx, String name, int slotCount, long capacityBytes) {
        int inFlight = ctx.options().framesInFlight();
        if (slotCount <= inFlight) {
            throw new IllegalArgumentException("readback ring '" + name + "': " + slotCount + " slots with " + inFlight
                    + " frames in flight: a slot would be reused while the GPU may still write it; use more than " + inFlight + " slots");
        }
        if (capacityBytes <= 0 || capacityBytes % 4 != 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': capacity must be a positive multiple of 4, got " + capacityBytes);
        }
        this.ctx = ctx;
        this.name = name;
        this.capacity = capacityBytes;
        this.slots = new Slot[slotCount];
        try (dev.tally.vk.ConstructionGuard guard = new dev.tally.vk.ConstructionGuard()) {
            for (int i = 0; i < slotCount; i++) {
                slots[i] = new Slot(guard.add(new GpuBuffer(ctx, name + ".slot" + i, capacityBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        MemoryKind.READBACK)));
            }
            guard.done();
        }
    }

    /**
     * Starts frame {@code frameNumber}: delivers the slot this frame will overwrite if the GPU is done
     * with it (never waits; a slot still pending counts as not ready and its sample is lost).
     */
    public void beginFrame(long frameNumber) {
        if (frameNumber <= frame) {
            throw new IllegalArgumentException("readback ring '" + name + "': frame " + frameNumber + " after frame " + frame);
        }
        frame = frameNumber;
        Slot due = slots[(int) (frameNumber % slots.length)];
        if (due.timelineValue == 0 || due.frame < 0) {
            return; // never written: the first N frames deliver nothing
        }
        if (due.timelineValue < 0 || ctx.completedValue() < due.timelineValue) {
            notReady++;
        } else {
            deliver(due);
        }
        due.frame = -1;
        due.timelineValue = 0;
    }

    private void deliver(Slot s) {
        s.buffer.invalidate(0, s.bytes);
        byte[] copy = new byte[(int) s.bytes];
        MemoryUtil.memByteBuffer(s.buffer.mappedAddress(), (int) s.bytes).get(copy);
        latest = new Sample(s.frame, s.timelineValue, frame, s.width, s.height, copy);
        samples++;
    }

    /** Adds the transfer pass (a side effect, never culled) that copies {@code regions} into this frame's slot. */
    public void capture(FrameGraph g, List<Region> regions, int width, int height) {
        if (frame < 0) {
            throw new IllegalStateException("readback ring '" + name + "': capture before beginFrame");
        }
        long total = regions.stream().mapToLong(Region::bytes).sum();
        if (total > capacity) {
            throw new IllegalArgumentException("readback ring '" + name + "': capture of " + total + " bytes exceeds the slot capacity " + capacity);
        }
        Slot slot = slots[(int) (frame % slots.length)];
        slot.frame = frame;
        slot.timelineValue = -1;
        slot.bytes = total;
        slot.width = width;
        slot.height = height;
        pendingSubmit = slot;
        BufferHandle target = g.importBuffer(name + ".slot" + (frame % slots.length), slot.buffer, Access.HOST_READ);
        record Copy(List<BufferHandle> sources, BufferHandle target) {
        }
        g.addPass(name, PassKind.TRANSFER, b -> {
            b.sideEffect();
            List<BufferHandle> sources = new ArrayList<>();
            for (Region r : regions) {
                sources.add(b.read(r.source(), Access.TRANSFER_SRC));
            }
            return new Copy(sources, b.write(target, Access.TRANSFER_DST));
        }, (c, pc) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                long dstOffset = 0;
                for (int i = 0; i < regions.size(); i++) {
                    Region r = regions.get(i);
                    vkCmdCopyBuffer(pc.cmd(), pc.buffer(c.sources().get(i)).handle(), pc.buffer(c.target()).handle(),
                            VkBufferCopy.calloc(1, stack).srcOffset(r.offset()).dstOffset(dstOffset).size(r.bytes()));
                    dstOffset += r.bytes();
                }
            }
        });
    }

    /** The frame's submission signals {@code timelineValue}; the captured slot completes when the counter reaches it. */
    public void submitted(long timelineValue) {
        if (pendingSubmit != null) {
            pendingSubmit.timelineValue = timelineValue;
            pendingSubmit = null;
        }
    }

    /** The newest delivered sample, or empty before the first one: never waits. */
    public Optional<Sample> latest() {
        return Optional.ofNullable(latest);
    }

    public ReadbackStats stats() {
        return new ReadbackStats(slots.length, samples, latest == null ? 0 : latest.lag(), notReady, blockingWaits);
    }

    public int slotCount() {
        return slots.length;
    }

    /**
     * Shutdown and tests only: waits for every submitted slot. Nothing is delivered (the ring delivers
     * a slot when it is due); this makes closing safe and is counted as a blocking wait.
     */
    public void drain() {
        long highest = 0;
        for (Slot s : slots) {
            highest = Math.max(highest, s.timelineValue);
        }
        if (highest > 0 && ctx.completedValue() < highest) {
            blockingWaits++;
            ctx.waitFor(highest);
        }
    }

    /** Reads the slot captured in the current frame right after waiting: the synchronous mode, for benchmarks only. */
    public Sample readNowBlocking(long timelineValue) {
        Slot s = slots[(int) (frame % slots.length)];
        if (ctx.completedValue() < timelineValue) {
            blockingWaits++;
            ctx.waitFor(timelineValue);
        }
        s.timelineValue = timelineValue;
        deliver(s);
        Sample now = latest;
        s.frame = -1;
        s.timelineValue = 0;
        return now;
    }

    @Override
    public void close() {
        // Destruction is deferred until the GPU is done, so pending slots leak nothing and need no wait.
        for (Slot s : slots) {
            s.buffer.close();
        }
    }
}

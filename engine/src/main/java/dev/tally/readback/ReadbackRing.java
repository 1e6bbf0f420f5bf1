package dev.tally.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import dev.tally.vk.Waits;
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
 * The ring follows the frames of its {@link GraphRuntime}: when frame f begins it delivers the slot
 * frame f is about to reuse (written at frame f - N; with N greater than the frames in flight its
 * submission has completed, which the timeline confirms without a wait). {@link #capture} adds a
 * transfer pass copying the sources into slot {@code f % N}, tagged with the frame and its timeline
 * value. {@link #latest()} returns the newest delivered sample. In {@link Mode#SYNC} the ring instead
 * waits for the frame just submitted: a baseline that shows on the same wait counters what the ring saves.
 */
public final class ReadbackRing implements AutoCloseable {
    /** How samples are delivered. */
    public enum Mode {
        /** Exactly N frames late, never waits. */
        FIXED,
        /**
         * Read within the frame: when Tally submits the frame it waits for it and delivers at once (lag 0);
         * when the caller submits, at the next frame's beginning (lag 1). A baseline, counted as readback waits.
         */
        SYNC
    }

    /** A region to capture: {@code bytes} from {@code offset} of {@code source}. */
    public record Region(BufferHandle source, long offset, long bytes) {
        /** The first {@code bytes} of {@code source}. */
        public static Region of(BufferHandle source, long bytes) {
            return new Region(source, 0, bytes);
        }
    }

    private static final class Slot {
        final GpuBuffer buffer;
        long frame = -1;          // -1: empty
        long timelineValue;
        long bytes;

        Slot(GpuBuffer buffer) {
            this.buffer = buffer;
        }
    }

    private final VulkanContext ctx;
    private final GraphRuntime graphs;
    private final GraphRuntime.FrameListener listener = new GraphRuntime.FrameListener() {
        @Override
        public void frameBegun(long frame, long completed) {
            ReadbackRing.this.frameBegun(frame, completed);
        }

        @Override
        public void frameSubmitted(long frame) {
            if (mode == Mode.SYNC) {
                readNow(slots[(int) (frame % slots.length)]);   // within the frame: wait, then read
            }
        }

        @Override
        public void frameAbandoned(long frame) {
            Slot s = slots[(int) (frame % slots.length)];
            if (s.frame == frame) {
                s.frame = -1;   // its copy never ran
            }
        }
    };
    private final String name;
    private final long capacity;
    private final Slot[] slots;
    private final Mode mode;
    private long frame = -1;
    private Sample latest;
    private long samples;
    private long notReady;

    /**
     * @param slotCount more than the frames in flight (fixed mode), so that a slot is never reused while
     *                  the GPU may still write it
     */
    public ReadbackRing(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode) {
        VulkanContext context = graphs.context();
        int inFlight = context.options().framesInFlight();
        if (slotCount <= inFlight) {
            throw new IllegalArgumentException("readback ring '" + name + "': " + slotCount + " slots with " + inFlight
                    + " frames in flight: a slot would be reused while the GPU may still write it; use more than " + inFlight + " slots");
        }
        if (capacityBytes <= 0 || capacityBytes % 4 != 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': capacity must be a positive multiple of 4, got " + capacityBytes);
        }
        this.ctx = context;
        this.graphs = graphs;
        this.name = name;
        this.capacity = capacityBytes;
        this.mode = mode;
        this.slots = new Slot[slotCount];
        try (dev.tally.vk.internal.ConstructionGuard guard = new dev.tally.vk.internal.ConstructionGuard()) {
            for (int i = 0; i < slotCount; i++) {
                slots[i] = new Slot(guard.add(new GpuBuffer(ctx, name + ".slot" + i, capacityBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        MemoryKind.READBACK)));
            }
            guard.done();
        }
        graphs.addListener(listener);
    }

    /** Delivers what frame {@code frameNumber}'s beginning makes due. */
    private void frameBegun(long frameNumber, long completed) {
        frame = frameNumber;
        if (mode == Mode.SYNC) {
            // A frame the caller submitted itself is read at the next beginning, still waiting for it.
            readNow(slots[(int) Math.floorMod(frameNumber - 1, (long) slots.length)]);
            return;
        }
        Slot due = slots[(int) (frameNumber % slots.length)];
        if (due.frame < 0) {
            return; // never written: the first N frames deliver nothing
        }
        if (completed < due.timelineValue) {
            notReady++;
        } else {
            deliver(due);
        }
    }

    private void readNow(Slot s) {
        if (s.frame >= 0) {
            ctx.waitFor(s.timelineValue, Waits.Cause.READBACK);
            deliver(s);
        }
    }

    private void deliver(Slot s) {
        s.buffer.invalidate(0, s.bytes);
        byte[] copy = new byte[(int) s.bytes];
        MemoryUtil.memByteBuffer(s.buffer.mappedAddress(), (int) s.bytes).get(copy);
        latest = new Sample(s.frame, s.timelineValue, frame, copy);
        samples++;
        s.frame = -1;
    }

    /** Captures the whole of a small buffer (at most the slot capacity). */
    public void capture(FrameGraph g, BufferHandle source) {
        capture(g, List.of(Region.of(source, Math.min(capacity, g.desc(source).size()))));
    }

    /** Adds the transfer pass (a side effect, never culled) that copies {@code regions} into this frame's slot. */
    public void capture(FrameGraph g, List<Region> regions) {
        if (g.frame() != frame) {
            throw new IllegalStateException("readback ring '" + name + "': capture into frame " + g.frame() + "'s graph, but frame " + frame
                    + " is the one begun (was the ring made for another Tally?)");
        }
        long total = 0;
        for (int i = 0; i < regions.size(); i++) {   // no stream: this runs every frame
            total += regions.get(i).bytes();
        }
        if (total > capacity) {
            throw new IllegalArgumentException("readback ring '" + name + "': capture of " + total + " bytes exceeds the slot capacity " + capacity);
        }
        Slot slot = slots[(int) (frame % slots.length)];
        if (slot.frame == frame) {
            throw new IllegalStateException("readback ring '" + name + "': captured twice in frame " + frame);
        }
        slot.frame = frame;
        slot.timelineValue = g.timelineValue();
        slot.bytes = total;
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

    /** The newest delivered sample, or empty before the first one: never waits. */
    public Optional<Sample> latest() {
        return Optional.ofNullable(latest);
    }

    /** Counters; {@code blockingWaits} are the context's readback waits, from the one place that counts waits. */
    public ReadbackStats stats() {
        return new ReadbackStats(slots.length, samples, latest == null ? 0 : latest.lag(), notReady,
                ctx.waits().of(Waits.Cause.READBACK).count());
    }

    public int slotCount() {
        return slots.length;
    }

    public Mode mode() {
        return mode;
    }

    public String name() {
        return name;
    }

    @Override
    public void close() {
        graphs.removeListener(listener);
        // Destruction is deferred until the GPU is done, so pending slots leak nothing and need no wait.
        for (Slot s : slots) {
            s.buffer.close();
        }
    }
}

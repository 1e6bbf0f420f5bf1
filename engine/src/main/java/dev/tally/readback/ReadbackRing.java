package dev.tally.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.FrameTicket;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.Handle;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.vk.internal.ConstructionGuard;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.TimestampQueries;
import dev.tally.vk.VulkanContext;
import dev.tally.vk.Waits;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkExtent3D;
import org.lwjgl.vulkan.VkImageSubresourceLayers;
import org.lwjgl.vulkan.VkOffset3D;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.*;

/**
 * Host-visible slots that hand the CPU GPU values without ever waiting (except in {@link Mode#SYNC}).
 * <p>
 * The ring follows the frames of its {@link GraphRuntime}. {@link #capture} adds a transfer pass that
 * copies the sources into slot {@code f % N}, then writes the frame number beside the payload and a GPU
 * timestamp. When a frame begins the ring reads the timeline once and delivers, depending on the
 * {@link Mode}: the slot the frame is about to reuse (fixed), or the newest completed one (freshest).
 * A delivered sample carries its provenance (frame, lag, completion time, age); one whose GPU-written
 * frame number is not its frame's is rejected and counted, never delivered. Samples reach
 * {@link #latest()} (polling), {@link #onSample subscribers} (callbacks, optionally into caller-owned
 * arrays: no allocation per sample) and {@link #requestOnce one-shot requests}.
 * <p>
 * Slot layout: a 16-byte header (word 0: the low 32 bits of the frame number, written by the GPU after
 * the copies) then the payload (see {@link SlotLayout}).
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
        SYNC,
        /**
         * The newest completed slot at each frame's beginning (typically 1-2 frames old on a fast GPU, at
         * most N), never waits; older completed slots are skipped and counted as superseded.
         */
        FRESHEST;

        private final String id = name().toLowerCase(java.util.Locale.ROOT);

        /** The mode as the configuration spells it ({@code fixed}, {@code sync}, {@code freshest}). */
        public String id() {
            return id;
        }
    }

    /** Something a capture copies: a buffer range or an image region. */
    public sealed interface Source permits Region, ImageRegion {
    }

    /** A region to capture: {@code bytes} from {@code offset} of {@code source}. */
    public record Region(BufferHandle source, long offset, long bytes) implements Source {
        /** The first {@code bytes} of {@code source}. */
        public static Region of(BufferHandle source, long bytes) {
            return new Region(source, 0, bytes);
        }
    }

    /**
     * A rectangle of an image (mip 0, layer 0), converted to RGBA floats at delivery. The image needs
     * TRANSFER_SRC usage and one of the formats {@link TexelFormats#supported()} names.
     */
    public record ImageRegion(ImageHandle image, int x, int y, int width, int height) implements Source {
        public static ImageRegion texel(ImageHandle image, int x, int y) {
            return new ImageRegion(image, x, y, 1, 1);
        }
    }

    static final int HEADER_BYTES = 16;

    private static final class Slot {
        final GpuBuffer buffer;
        final int query;
        final SlotLayout layout = new SlotLayout();
        long frame = -1;          // -1: empty, delivered or superseded
        long timelineValue;
        /** Latest CPU time at which the slot was known to be pending (its capture, or a frame beginning). */
        long pendingSeenNanos;
        ReadbackRequest request;  // one-shot slots only
        /** The slot buffer's name in a frame graph (made once: capturing builds no string). */
        final String targetName;
        /** The capture into this slot, refilled each time. */
        final Copy copy = new Copy(this);

        Slot(GpuBuffer buffer, int query, String targetName) {
            this.buffer = buffer;
            this.query = query;
            this.targetName = targetName;
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
            ReadbackRing.this.frameAbandoned(frame);
        }
    };
    private final String name;
    private final long capacity;
    private final Slot[] slots;
    private final List<Slot> oneShotSlots = new ArrayList<>();
    private final Mode mode;
    private final TimestampQueries queries;
    private final GpuClock clock;
    private final TimeSource timeSource;
    private final long[] ticks = new long[1];
    private final SampleHandOut handOut;
    // The frame being declared or delivered to is the runtime's (GraphRuntime.currentTicket): the ring keeps no count of its own.
    private long beginNanos;
    private long notReady;
    private long superseded;
    private long injectInvisibleAt = -1;

    /** With {@code maxAgeFrames} equal to the slot count: in fixed mode no sample is stale. */
    public ReadbackRing(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode) {
        this(graphs, name, slotCount, capacityBytes, mode, slotCount);
    }

    /**
     * @param slotCount    more than the frames in flight, so that a slot is never reused while the GPU may still write it
     * @param maxAgeFrames a sample with a larger lag is delivered flagged {@link Sample#stale()} and counted
     */
    public ReadbackRing(GraphRuntime graphs, String name, int slotCount, long capacityBytes, Mode mode, int maxAgeFrames) {
        VulkanContext context = graphs.context();
        int inFlight = context.options().framesInFlight();
        if (slotCount <= inFlight) {
            throw new IllegalArgumentException("readback ring '" + name + "': " + slotCount + " slots with " + inFlight
                    + " frames in flight: a slot would be reused while the GPU may still write it; use more than " + inFlight + " slots");
        }
        if (capacityBytes <= 0 || capacityBytes % 4 != 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': capacity must be a positive multiple of 4, got " + capacityBytes);
        }
        if (maxAgeFrames < 0) {
            throw new IllegalArgumentException("readback ring '" + name + "': maxAgeFrames must be >= 0, got " + maxAgeFrames);
        }
        this.ctx = context;
        this.graphs = graphs;
        this.name = name;
        this.capacity = capacityBytes;
        this.mode = mode;
        this.slots = new Slot[slotCount];
        boolean timestamps = context.info().timestampValidBits() > 0;
        this.clock = new GpuClock(context);
        this.timeSource = clock.available() ? TimeSource.CALIBRATED : TimeSource.HOST_ESTIMATE;
        try (ConstructionGuard guard = new ConstructionGuard()) {
            // Queries 0..N-1 for the every-frame slots, N..2N-1 for one-shot slots.
            this.queries = timeSource == TimeSource.CALIBRATED && timestamps ? guard.add(new TimestampQueries(ctx, 2 * slotCount)) : null;
            for (int i = 0; i < slotCount; i++) {
                slots[i] = new Slot(guard.add(newSlotBuffer(name + ".slot" + i)), i, name + ".slot" + i);
            }
            guard.done();
        }
        this.handOut = new SampleHandOut(name, slotBytes() - HEADER_BYTES, maxAgeFrames, timeSource);
        graphs.addListener(listener);
    }

    private long slotBytes() {
        return HEADER_BYTES + capacity + 16L * SlotLayout.MAX_REGIONS;   // room for image regions' alignment
    }

    private GpuBuffer newSlotBuffer(String bufferName) {
        GpuBuffer b = new GpuBuffer(ctx, bufferName, slotBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        // A sequence no frame writes (frame 2^32 - 1 is years away), so that a slot the GPU never wrote is rejected
        // even when fresh memory happens to read as frame 0's number.
        MemoryUtil.memPutInt(b.mappedAddress(), -1);
        b.flush(0, 4);
        return b;
    }

    // ---------------------------------------------------------------- delivery (at each frame's beginning)

    private void frameBegun(long frameNumber, long completed) {
        // frameNumber is the runtime's current ticket now
        beginNanos = System.nanoTime();
        deliverOneShots(completed);
        switch (mode) {
            case SYNC -> readNow(slots[(int) Math.floorMod(frameNumber - 1, (long) slots.length)]);   // caller-submitted frames
            case FIXED -> {
                Slot due = slots[(int) (frameNumber % slots.length)];
                if (due.frame >= 0) {
                    if (completed < due.timelineValue) {
                        notReady++;
                        due.frame = -1;   // about to be reused: the sample is lost
                    } else {
                        deliver(due);
                    }
                }
            }
            case FRESHEST -> deliverNewest(completed);
        }
    }

    /** Delivers the newest completed slot; older completed ones are superseded. Reads no more than the metadata. */
    private void deliverNewest(long completed) {
        Slot newest = null;
        for (Slot s : slots) {
            if (s.frame < 0) {
                continue;
            }
            if (s.timelineValue > completed) {
                s.pendingSeenNanos = beginNanos;
            } else if (newest == null || s.frame > newest.frame) {
                newest = s;
            }
        }
        if (newest == null) {
            return;
        }
        for (Slot s : slots) {
            if (s != newest && s.frame >= 0 && s.frame < newest.frame) {
                superseded++;
                s.frame = -1;
            }
        }
        deliver(newest);
    }

    private void deliverOneShots(long completed) {
        for (int i = 0; i < oneShotSlots.size(); i++) {
            Slot s = oneShotSlots.get(i);
            if (s.request == null) {
                continue;
            }
            if (s.timelineValue > completed) {
                s.pendingSeenNanos = beginNanos;
            } else {
                deliver(s);
            }
        }
    }

    private void readNow(Slot s) {
        if (s.frame >= 0) {
            ctx.waitFor(s.timelineValue, Waits.Cause.READBACK);
            deliver(s);
        }
    }

    /** Hands the slot's sample out (the hand-out checks its sequence number); the slot is then free. */
    private void deliver(Slot s) {
        long slotFrame = s.frame;
        ReadbackRequest request = s.request;
        s.frame = -1;
        s.request = null;
        long now = System.nanoTime();
        s.buffer.invalidate(0, HEADER_BYTES + s.layout.payloadBytes());
        handOut.deliver(s.buffer.mappedAddress(), s.layout, slotFrame, s.timelineValue, currentFrame(), completionNanos(s, now), now, request);
    }

    private long completionNanos(Slot s, long now) {
        if (queries != null && queries.read(s.query, 1, ticks)) {
            return clock.cpuNanos(ticks[0], now);
        }
        // Completed after it was last seen pending and before this beginning saw it done.
        long seenPending = Math.min(s.pendingSeenNanos, beginNanos);
        return seenPending + (beginNanos - seenPending) / 2;
    }

    private void frameAbandoned(long abandoned) {
        Slot s = slots[(int) (abandoned % slots.length)];
        if (s.frame == abandoned) {
            s.frame = -1;   // its copy never ran
        }
        for (Slot o : oneShotSlots) {
            if (o.request != null && o.frame == abandoned) {
                o.request.cancel();
                o.request = null;
                o.frame = -1;
            }
        }
    }

    // ---------------------------------------------------------------- capture (while declaring a frame)

    /** Captures the whole of a small buffer (at most the slot capacity). */
    public void capture(FrameGraph g, BufferHandle source) {
        capture(g, List.of(Region.of(source, Math.min(capacity, g.desc(source).size()))));
    }

    /** Adds the transfer pass (a side effect, never culled) that copies {@code sources} into this frame's slot. */
    public void capture(FrameGraph g, List<? extends Source> sources) {
        requireFrame(g);
        Slot slot = slots[graphs.currentTicket().slotIn(slots.length)];
        if (slot.frame == g.frame()) {
            throw new IllegalStateException("readback ring '" + name + "': captured twice in frame " + g.frame());
        }
        addCopyPass(g, slot, sources, name, slot.targetName);
    }

    /**
     * Reads {@code sources} once: delivered exactly once to {@code listener} (may be null) and the returned
     * request's future, at the first frame beginning after the GPU finished. At most as many one-shot
     * requests as the ring has slots may be pending.
     */
    public ReadbackRequest requestOnce(FrameGraph g, List<? extends Source> sources, SampleListener listener) {
        requireFrame(g);
        Slot slot = null;
        int pending = 0;
        for (Slot s : oneShotSlots) {
            if (s.request == null && s.frame < 0) {
                slot = slot == null ? s : slot;
            } else {
                pending++;
            }
        }
        if (slot == null) {
            if (pending >= slots.length) {
                throw new IllegalStateException("readback ring '" + name + "': " + pending + " one-shot requests pending (at most "
                        + slots.length + "); wait for one to be delivered");
            }
            int created = oneShotSlots.size();
            slot = new Slot(newSlotBuffer(name + ".once" + created), slots.length + created, name + ".once" + created);
            oneShotSlots.add(slot);
        }
        ReadbackRequest request = new ReadbackRequest(g.frame(), listener);
        int index = oneShotSlots.indexOf(slot);
        addCopyPass(g, slot, sources, name + "/once" + index, name + ".once" + index);
        slot.request = request;
        return request;
    }

    /** The number of the frame begun last, -1 before the first. */
    private long currentFrame() {
        FrameTicket t = graphs.currentTicket();
        return t == null ? -1 : t.number();
    }

    private void requireFrame(FrameGraph g) {
        g.requireDeclaring("readback ring capture", name);   // before anything of the slot changes
        if (g.ticket() != graphs.currentTicket()) {
            throw new IllegalStateException("readback ring '" + name + "': capture into frame " + g.frame() + "'s graph, but frame " + currentFrame()
                    + " is the one begun (was the ring made for another Tally?)");
        }
    }

    /**
     * One capture: what to copy where; as a pass's setup it declares the reads and the slot's write and
     * returns itself. Each slot owns one, refilled by each capture into it: a slot is captured into again only
     * after the frame that last used it was recorded (or given up), so a capture allocates nothing.
     */
    private static final class Copy implements Function<PassBuilder, Copy> {
        final Source[] sources = new Source[SlotLayout.MAX_REGIONS];
        int count;
        final long[] offsets = new long[SlotLayout.MAX_REGIONS];
        final Slot slot;
        long capturedFrame;
        boolean invisible;
        BufferHandle slotHandle;
        /** Declared by the setup: the handle of each source and the slot's written version. */
        final Handle[] read = new Handle[SlotLayout.MAX_REGIONS];
        BufferHandle target;

        Copy(Slot slot) {
            this.slot = slot;
        }

        /** Refills this capture; {@code sources} is copied (at most MAX_REGIONS, checked by the caller). */
        Copy set(List<? extends Source> from, long capturedFrame, boolean invisible, BufferHandle slotHandle) {
            java.util.Arrays.fill(sources, null);
            java.util.Arrays.fill(read, null);
            count = from.size();
            for (int i = 0; i < count; i++) {
                sources[i] = from.get(i);
            }
            this.capturedFrame = capturedFrame;
            this.invisible = invisible;
            this.slotHandle = slotHandle;
            this.target = null;
            return this;
        }

        @Override
        public Copy apply(PassBuilder b) {
            b.sideEffect();
            for (int i = 0; i < count; i++) {
                Source src = sources[i];
                read[i] = src instanceof ImageRegion r ? b.read(r.image(), Access.TRANSFER_SRC) : b.read(((Region) src).source(), Access.TRANSFER_SRC);
            }
            target = b.write(slotHandle, Access.TRANSFER_DST);
            return this;
        }
    }

    /** The execute step of every capture pass (one object for the ring's life). */
    private final BiConsumer<Copy, PassContext> recordStep = (c, pc) -> {
        if (!c.invisible) {
            recordCopies(pc, c);
        }
    };

    private void addCopyPass(FrameGraph g, Slot slot, List<? extends Source> sources, String passName, String targetName) {
        SlotLayout layout = slot.layout;
        long end = 0, total = 0;
        for (int i = 0; i < sources.size(); i++) {
            Source src = sources.get(i);
            if (src instanceof ImageRegion r) {
                checkImageRegion(g, r);
                long bytes = (long) r.width() * r.height() * TexelFormats.bytesPerTexel(g.desc(r.image()).format());
                end = SlotLayout.sizeAfter(end, true, bytes);
                total += bytes;
            } else {
                Region r = (Region) src;
                end = SlotLayout.sizeAfter(end, false, r.bytes());
                total += r.bytes();
            }
        }
        if (total > capacity) {
            throw new IllegalArgumentException("readback ring '" + name + "': capture of " + total + " bytes exceeds the slot capacity " + capacity);
        }
        if (sources.size() > SlotLayout.MAX_REGIONS) {
            throw new IllegalArgumentException("readback ring '" + name + "': " + sources.size() + " regions in one capture; at most " + SlotLayout.MAX_REGIONS);
        }
        Copy copy = slot.copy;
        long[] offsets = copy.offsets;
        layout.clear();
        for (int i = 0; i < sources.size(); i++) {
            Source src = sources.get(i);
            offsets[i] = src instanceof ImageRegion r
                    ? layout.addImage(g.desc(r.image()).format(), r.width() * r.height())
                    : layout.addBuffer(((Region) src).bytes());
        }
        slot.frame = g.frame();
        slot.timelineValue = g.timelineValue();
        slot.pendingSeenNanos = System.nanoTime();
        BufferHandle target = g.importBuffer(targetName, slot.buffer, Access.HOST_READ);
        g.addPass(passName, PassKind.TRANSFER, copy.set(sources, g.frame(), injectInvisibleAt == g.frame(), target), recordStep);
    }

    private void recordCopies(PassContext pc, Copy c) {
        Source[] sources = c.sources;
        long[] offsets = c.offsets;
        Slot slot = c.slot;
        long capturedFrame = c.capturedFrame;
        long dst = pc.buffer(c.target).handle();
        if (queries != null) {
            queries.reset(pc.cmd(), slot.query, 1);
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            for (int i = 0; i < c.count; i++) {
                // The copy structs are written by address (static setters): no wrapper objects every frame.
                if (sources[i] instanceof ImageRegion r) {
                    long copy = stack.ncalloc(VkBufferImageCopy.ALIGNOF, 1, VkBufferImageCopy.SIZEOF);
                    VkBufferImageCopy.nbufferOffset(copy, HEADER_BYTES + offsets[i]);
                    long layers = copy + VkBufferImageCopy.IMAGESUBRESOURCE;
                    VkImageSubresourceLayers.naspectMask(layers, VK_IMAGE_ASPECT_COLOR_BIT);
                    VkImageSubresourceLayers.nlayerCount(layers, 1);
                    long offset = copy + VkBufferImageCopy.IMAGEOFFSET;
                    VkOffset3D.nx(offset, r.x());
                    VkOffset3D.ny(offset, r.y());
                    long extent = copy + VkBufferImageCopy.IMAGEEXTENT;
                    VkExtent3D.nwidth(extent, r.width());
                    VkExtent3D.nheight(extent, r.height());
                    VkExtent3D.ndepth(extent, 1);
                    nvkCmdCopyImageToBuffer(pc.cmd(), pc.image((ImageHandle) c.read[i]).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            dst, 1, copy);
                } else {
                    Region r = (Region) sources[i];
                    long copy = stack.ncalloc(VkBufferCopy.ALIGNOF, 1, VkBufferCopy.SIZEOF);
                    VkBufferCopy.nsrcOffset(copy, r.offset());
                    VkBufferCopy.ndstOffset(copy, HEADER_BYTES + offsets[i]);
                    VkBufferCopy.nsize(copy, r.bytes());
                    nvkCmdCopyBuffer(pc.cmd(), pc.buffer((BufferHandle) c.read[i]).handle(), dst, 1, copy);
                }
            }
        }
        // The sequence number goes in after the payload, in the same pass: a host that sees it sees the payload
        // (the graph's barrier to HOST_READ covers both); one that sees an older number is looking at an older frame.
        vkCmdFillBuffer(pc.cmd(), dst, 0, 4, (int) capturedFrame);
        if (queries != null) {
            queries.write(pc.cmd(), slot.query);
        }
    }

    private void checkImageRegion(FrameGraph g, ImageRegion r) {
        ImageDesc d = g.desc(r.image());
        if (TexelFormats.bytesPerTexel(d.format()) == 0) {
            throw new IllegalArgumentException(what(g, r) + " has format " + d.format() + "; expected " + TexelFormats.supported());
        }
        if ((d.usage() & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) == 0) {
            throw new IllegalArgumentException(what(g, r) + " lacks VK_IMAGE_USAGE_TRANSFER_SRC_BIT, which a readback copy needs");
        }
        if (r.width() <= 0 || r.height() <= 0 || r.x() < 0 || r.y() < 0 || r.x() + r.width() > d.width() || r.y() + r.height() > d.height()) {
            throw new IllegalArgumentException(what(g, r) + ": region " + r.width() + "x" + r.height() + " at (" + r.x() + ", " + r.y()
                    + ") is not inside its " + d.width() + "x" + d.height() + " extent");
        }
    }

    /** The start of a message about {@code r} (built only when there is something to report). */
    private String what(FrameGraph g, ImageRegion r) {
        return "readback ring '" + name + "': image '" + g.name(r.image()) + "'";
    }

    // ---------------------------------------------------------------- reading

    /** The newest every-frame sample, or empty before the first one: never waits (allocates a copy once per new sample). */
    public Optional<Sample> latest() {
        return handOut.latest();
    }

    /** Every every-frame sample goes to {@code listener} when its frame begins, on that caller's thread. */
    public Subscription onSample(SampleListener listener) {
        return handOut.subscribe(listener, null, null);
    }

    /** Each sample is converted into {@code destination} (from index 0), then {@code listener} (may be null) is called. */
    public Subscription onSample(float[] destination, SampleListener listener) {
        return handOut.subscribe(listener, destination, null);
    }

    /** Each sample's raw payload goes into {@code destination} (from 0, then flipped), then {@code listener} (may be null) is called. */
    public Subscription onSample(ByteBuffer destination, SampleListener listener) {
        return handOut.subscribe(listener, null, destination);
    }

    /** Test hook: frame {@code f}'s capture records no commands, so that the host sees the slot's previous contents. */
    void injectInvisibleWrite(long f) {
        injectInvisibleAt = f;
    }

    /** Counters; {@code blockingWaits} are the context's readback waits, from the one place that counts waits. */
    public ReadbackStats stats() {
        return new ReadbackStats(slots.length, handOut.samples(), handOut.lastLag(), notReady, ctx.waits().count(Waits.Cause.READBACK),
                mode, handOut.lagMin(), handOut.lagMax(), handOut.ageMillisMedian(), handOut.stale(), handOut.rejected(), superseded,
                handOut.oneShots(), timeSource);
    }

    public int slotCount() {
        return slots.length;
    }

    public Mode mode() {
        return mode;
    }

    public int maxAgeFrames() {
        return handOut.maxAgeFrames();
    }

    /** How this ring's completion times are obtained on this device. */
    public TimeSource timeSource() {
        return timeSource;
    }

    public String name() {
        return name;
    }

    /** How often the GPU clock was paired with the CPU clock (0 with {@link TimeSource#HOST_ESTIMATE}). */
    long clockCalibrations() {
        return clock.calibrations();
    }

    @Override
    public void close() {
        if (!slots[0].buffer.isClosed()) {
            graphs.context().requireOpen("readback ring '" + name + "'");
        }
        graphs.removeListener(listener);
        // Destruction is deferred until the GPU is done, so pending slots leak nothing and need no wait.
        for (Slot s : slots) {
            s.buffer.close();
        }
        for (Slot s : oneShotSlots) {
            if (s.request != null) {
                s.request.cancel();
            }
            s.buffer.close();
        }
        if (queries != null) {
            queries.close();
        }
        handOut.close();
    }
}

package dev.tally.internal.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.Handle;
import dev.tally.graph.PassBuilder;
import dev.tally.readback.ReadbackRing.ImageRegion;
import dev.tally.readback.ReadbackRing.Region;
import dev.tally.readback.ReadbackRing.Source;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One capture: what to copy where; as a pass's setup it declares the reads and the slot's write and
 * returns itself. Each slot owns one, refilled by each capture into it: a slot is captured into again only
 * after the frame that last used it was recorded (or given up), so a capture allocates nothing.
 */
final class CaptureCopy implements Function<PassBuilder, CaptureCopy> {
    final Source[] sources = new Source[SlotLayout.MAX_REGIONS];
    int count;
    final long[] offsets = new long[SlotLayout.MAX_REGIONS];
    final ReadbackSlot slot;
    long capturedFrame;
    boolean invisible;
    BufferHandle slotHandle;
    /** Declared by the setup: the handle of each source and the slot's written version. */
    final Handle[] read = new Handle[SlotLayout.MAX_REGIONS];
    BufferHandle target;

    CaptureCopy(ReadbackSlot slot) {
        this.slot = slot;
    }

    /** Refills this capture; {@code sources} is copied (at most MAX_REGIONS, checked by the caller). */
    /** Copied by {@link ReadbackGather}'s dispatches (a compute pass), else by transfer commands. */
    boolean compute;

    CaptureCopy set(List<? extends Source> from, long capturedFrame, boolean invisible, BufferHandle slotHandle, boolean compute) {
        this.compute = compute;
        Arrays.fill(sources, null);
        Arrays.fill(read, null);
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
    public CaptureCopy apply(PassBuilder b) {
        b.sideEffect();
        for (int i = 0; i < count; i++) {
            Source src = sources[i];
            Access use = compute ? Access.COMPUTE_READ : Access.TRANSFER_SRC;
            read[i] = src instanceof ImageRegion r ? b.read(r.image(), use) : b.read(((Region) src).source(), use);
        }
        target = b.write(slotHandle, compute ? Access.COMPUTE_WRITE : Access.TRANSFER_DST);
        return this;
    }
}

package dev.tally.internal.readback;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.Handle;
import dev.tally.graph.PassBuilder;

import java.util.Arrays;
import java.util.function.Function;

/**
 * One capture: what to copy where; as a pass's setup it declares the reads and the slot's write and
 * returns itself. Each slot owns one, refilled by each capture into it: a slot is captured into again only
 * after the frame that last used it was recorded (or given up), so a capture allocates nothing.
 */
final class CaptureCopy implements Function<PassBuilder, CaptureCopy> {
    /** The capture's sources, copied from the caller's list (which the caller may refill before this is recorded). */
    final SourceArrays sources;
    int count;
    final long[] offsets = new long[SlotLayout.MAX_REGIONS];
    final ReadbackSlot slot;
    long capturedFrame;
    boolean invisible;
    BufferHandle slotHandle;
    /** Declared by the setup: the handle of each source and the slot's written version. */
    final Handle[] read = new Handle[SlotLayout.MAX_REGIONS];
    BufferHandle target;
    /** Copied by {@link ReadbackGather}'s dispatches (a compute pass), else by transfer commands. */
    boolean compute;

    CaptureCopy(ReadbackSlot slot) {
        this.slot = slot;
        this.sources = new SourceArrays("(a slot's copy)");   // filled only by set, which reports nothing
    }

    /** Refills this capture with a copy of {@code from} (at most MAX_REGIONS, as a source list holds). */
    CaptureCopy set(SourceArrays from, long capturedFrame, boolean invisible, BufferHandle slotHandle, boolean compute) {
        this.compute = compute;
        sources.set(from);
        Arrays.fill(read, null);
        count = from.size();
        this.capturedFrame = capturedFrame;
        this.invisible = invisible;
        this.slotHandle = slotHandle;
        this.target = null;
        return this;
    }

    @Override
    public CaptureCopy apply(PassBuilder b) {
        b.sideEffect();
        Access use = compute ? Access.COMPUTE_READ : Access.TRANSFER_SRC;
        for (int i = 0; i < count; i++) {
            read[i] = sources.isImage(i) ? b.read(sources.image(i), use) : b.read(sources.buffer(i), use);
        }
        target = b.write(slotHandle, compute ? Access.COMPUTE_WRITE : Access.TRANSFER_DST);
        return this;
    }
}

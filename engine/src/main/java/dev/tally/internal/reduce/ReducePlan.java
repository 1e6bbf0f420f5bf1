package dev.tally.internal.reduce;

import dev.tally.reduce.ReduceStats;

import java.util.ArrayList;
import java.util.List;

/**
 * The dispatches that reduce n floats.
 * <ul>
 * <li>One-pass (n up to {@code singleDispatchMax}): one dispatch; the last workgroup to finish folds
 * the partials. Small n pays one launch instead of two launches and a barrier.</li>
 * <li>Two-pass (large n): one first-pass dispatch per binding-sized chunk (a single one unless n
 * exceeds maxStorageBufferRange), each writing its partials, then a single-workgroup fold.</li>
 * </ul>
 * The sum, minimum and maximum read with {@code unroll} vec4 loads in flight per invocation ({@link ReduceSettings#unrollFor});
 * the statistics kernel keeps its own load batches (the plan's group counts serve it as they are).
 * Pure arithmetic, so it is tested without a GPU.
 */
public record ReducePlan(long n, List<Dispatch> firstPass, int partials, boolean onePass, long partialsOffset, int unroll) {
    /** One first-pass dispatch: {@code count} floats from {@code elementOffset}, {@code groups} partials at {@code outIndex}. */
    public record Dispatch(long elementOffset, long count, int groups, int outIndex) {
    }

    /** Bytes of the one-pass ticket counter at the start of the scratch buffer. */
    public static final long TICKET_BYTES = 16;

    public static ReducePlan of(long n, ReduceSettings s) {
        if (n < 0) {
            throw new IllegalArgumentException("element count must not be negative, got " + n);
        }
        int unroll = s.unrollFor(n);
        if (n <= s.singleDispatchMax() && n <= s.chunkElements()) {
            int groups = Math.min(s.onePassGroups(), groupsFor(n, s, unroll));
            return new ReducePlan(n, List.of(new Dispatch(0, n, groups, 0)), groups, true, s.alignUp(TICKET_BYTES), unroll);
        }
        List<Dispatch> dispatches = new ArrayList<>();
        int outIndex = 0;
        for (long offset = 0; offset < n; offset += s.chunkElements()) {
            long count = Math.min(s.chunkElements(), n - offset);
            int groups = groupsFor(count, s, unroll);
            dispatches.add(new Dispatch(offset, count, groups, outIndex));
            outIndex += groups;
        }
        return new ReducePlan(n, List.copyOf(dispatches), outIndex, false, s.alignUp(TICKET_BYTES), unroll);
    }

    /**
     * Fewer groups for smaller inputs: every invocation gets at least {@code minSteps} full loop steps,
     * and the fold has fewer partials to read. A function of n and the settings only: deterministic.
     */
    static int groupsFor(long count, ReduceSettings s, int unroll) {
        long perGroup = s.elementsPerGroupStep(unroll) * s.minSteps();
        long wanted = (count + perGroup - 1) / perGroup;
        return (int) Math.max(1, Math.min(s.groups(), wanted));
    }

    /**
     * Bytes of scratch this plan needs: the ticket counter, then the partials at {@link #partialsOffset}
     * (the ticket's size rounded up to the storage-buffer offset alignment, so the partials' binding is
     * valid on devices that demand up to 256). Zero it once when created.
     */
    public long scratchBytes() {
        return partialsOffset + 4L * Math.max(1, partials);
    }

    /**
     * Scratch enough for every plan of up to {@code maxCount} floats: partials grow with n up to the group limit within one
     * dispatch shape and one unroll, so the most is at {@code maxCount} or just below where the shape or the unroll changes.
     */
    public static long scratchBytesUpTo(long maxCount, ReduceSettings s) {
        return mostUpTo(maxCount, s, ReducePlan::scratchBytes);
    }

    /** {@link #statsScratchBytes} enough for every plan of up to {@code maxCount} floats (as {@link #scratchBytesUpTo}). */
    public static long statsScratchBytesUpTo(long maxCount, ReduceSettings s) {
        return mostUpTo(maxCount, s, ReducePlan::statsScratchBytes);
    }

    private static long mostUpTo(long maxCount, ReduceSettings s, java.util.function.ToLongFunction<ReducePlan> bytesOf) {
        long bytes = 0;
        for (long n : new long[]{maxCount, Math.min(maxCount, s.singleDispatchMax()), Math.min(maxCount, s.singleDispatchMax() + 1),
                Math.min(maxCount, ReduceSettings.LARGE_INPUT - 1)}) {
            bytes = Math.max(bytes, bytesOf.applyAsLong(of(n, s)));
        }
        return bytes;
    }

    /** Scratch for the statistics reduction: the ticket, then one 32-byte record per partial. */
    public long statsScratchBytes() {
        return partialsOffset + (long) ReduceStats.RECORD_BYTES * Math.max(1, partials);
    }

    public int dispatchCount() {
        return firstPass.size() + (onePass ? 0 : 1);
    }
}

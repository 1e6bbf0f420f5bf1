package dev.tally.reduce;

import java.util.ArrayList;
import java.util.List;

/**
 * The dispatches that reduce n floats. Large n: one first-pass dispatch per binding-sized chunk
 * (a single one unless n exceeds maxStorageBufferRange), each writing its partials, then one
 * single-workgroup fold. Small n: one single-workgroup dispatch straight to the result.
 * Pure arithmetic, so it is tested without a GPU.
 */
public record ReducePlan(long n, List<Dispatch> firstPass, int partials, boolean single) {
    /** One first-pass dispatch: {@code count} floats from {@code elementOffset}, {@code groups} partials at {@code outIndex}. */
    public record Dispatch(long elementOffset, long count, int groups, int outIndex) {
    }

    public static ReducePlan of(long n, ReduceSettings s) {
        if (n < 0) {
            throw new IllegalArgumentException("element count must not be negative, got " + n);
        }
        if (n <= s.singleDispatchMax() && n <= s.chunkElements()) {
            return new ReducePlan(n, List.of(new Dispatch(0, n, 1, 0)), 0, true);
        }
        List<Dispatch> dispatches = new ArrayList<>();
        int outIndex = 0;
        for (long offset = 0; offset < n; offset += s.chunkElements()) {
            long count = Math.min(s.chunkElements(), n - offset);
            // Fewer groups for smaller inputs: every invocation gets at least one full step, and the
            // fold has fewer partials to read. Deterministic: a function of n and the settings only.
            long wanted = (count + s.elementsPerGroupStep() - 1) / s.elementsPerGroupStep();
            int groups = (int) Math.max(1, Math.min(s.groups(), wanted));
            dispatches.add(new Dispatch(offset, count, groups, outIndex));
            outIndex += groups;
        }
        return new ReducePlan(n, List.copyOf(dispatches), outIndex, false);
    }

    /** Bytes of the partials buffer this plan needs (at least 4: Vulkan has no empty buffers). */
    public long partialsBytes() {
        return Math.max(4, 4L * partials);
    }

    public int dispatchCount() {
        return firstPass.size() + (single ? 0 : 1);
    }
}

package dev.tally.internal.graph;

import dev.tally.internal.vk.ResourceState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The GPU objects behind one compiled topology's transients: one memory allocation per slot of its plan,
 * one buffer or image per transient bound into it (aliases share memory), and where each slot was left
 * by the last frame that used it (frames in flight share the slots, so aliasing carries across frames).
 */
final class Transients {
    /** The plan whose slots these are. */
    final GraphPlan plan;
    /** Laid out with TRANSFER_DST usage, so that {@code debugPoisonTransients} can fill them. */
    final boolean poisoned;
    final long[] slotAllocations;
    final ResourceState[] slotStates;
    /** By resource id: the TrackedBuffer or TrackedImage of each transient, null otherwise. */
    final Object[] objects;
    /** Handles the backend created and destroys with the slots. */
    final List<Long> rawBuffers = new ArrayList<>();
    final List<Long> rawImages = new ArrayList<>();

    Transients(GraphPlan plan, boolean poisoned, int resources) {
        this.plan = plan;
        this.poisoned = poisoned;
        int slots = plan.slots().size();
        slotAllocations = new long[slots];
        slotStates = new ResourceState[slots];
        Arrays.fill(slotStates, ResourceState.UNUSED);
        objects = new Object[resources];
    }
}

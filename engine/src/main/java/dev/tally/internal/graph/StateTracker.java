package dev.tally.internal.graph;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.ResourceState;

/**
 * Where resources start and end a frame. Imported, scratch and history resources keep their own state
 * (on their TrackedBuffer or TrackedImage, for their whole life): read when the frame is recorded, written back
 * once it is. Transients' memory slots keep theirs with the topology's {@link Transients}.
 */
final class StateTracker {
    private StateTracker() {
    }

    /** The state {@code physical} (a TrackedBuffer or TrackedImage) was left in. */
    static ResourceState stateOf(Object physical) {
        return physical instanceof TrackedBuffer b ? b.state() : ((TrackedImage) physical).state();
    }

    /** Every tracked entry of {@code g}, read again now: an earlier frame recorded since the declaration may have moved it. */
    static void resolveEntries(GraphDeclaration g) {
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            if (r.trackedEntry) {
                r.entry = stateOf(r.physical);
            }
        }
    }

    /** {@code g} was recorded as {@code plan}, leaving each resource in {@code finalStates} (by id; null: untouched). */
    static void frameRecorded(GraphDeclaration g, GraphPlan plan, ResourceState[] finalStates, Transients transients) {
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            ResourceState fin = finalStates[r.id];
            if (fin == null) {
                continue;
            }
            if (r.transientResource()) {
                if (plan.slotOf()[r.id] >= 0) {
                    transients.slotStates[plan.slotOf()[r.id]] = fin;
                }
            } else if (r.physical instanceof TrackedBuffer b) {
                b.state(fin);
            } else if (r.physical instanceof TrackedImage img) {
                img.state(fin);
            }
        }
    }
}

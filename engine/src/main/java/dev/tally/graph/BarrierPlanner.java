package dev.tally.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;

/**
 * Computes the synchronization2 barriers of a compiled frame from the declared accesses: read after
 * write, write after read (execution only), write after write, image layout changes, memory handed
 * from one aliased transient to the next, and the final accesses of imported resources. No barrier
 * between two reads in the same layout. One merged list per pass.
 */
public final class BarrierPlanner {
    /** Barriers before each pass in plan order, the epilogue, and where each resource was left. */
    public record Barriers(List<List<BarrierSpec>> beforePass, List<BarrierSpec> epilogue, ResourceState[] finalStates) {
    }

    private BarrierPlanner() {
    }

    /**
     * @param slotEntry where each memory slot was left by the last frame that used it (aliasing
     *                  carries across frames, since frames in flight share the slots)
     */
    public static Barriers plan(FrameGraph g, GraphPlan plan, IntFunction<ResourceState> slotEntry) {
        int count = g.resources.size();
        ResourceState[] state = new ResourceState[count];
        ResourceState[] slotState = new ResourceState[plan.slots().size()];
        for (int s = 0; s < slotState.length; s++) {
            slotState[s] = slotEntry.apply(s);
        }
        for (GraphResource r : g.resources) {
            state[r.id] = r.transientResource() ? null : r.entry;
        }
        List<List<BarrierSpec>> before = new ArrayList<>();
        for (int pos = 0; pos < plan.order().size(); pos++) {
            Pass p = g.passes.get(plan.order().get(pos));
            List<BarrierSpec> list = new ArrayList<>();
            for (Pass.Use use : merged(g, p)) {
                GraphResource r = g.resources.get(use.resource());
                if (state[r.id] == null) {
                    // First use of a transient: its memory may still be in use by the slot's previous
                    // occupant (this frame or an earlier one). Order against that, contents discarded.
                    ResourceState prev = slotState[plan.slotOf()[r.id]];
                    if (prev.touched()) {
                        list.add(new BarrierSpec(r.id, r.image, true, prev.writeStages() | prev.readStages(), prev.writeAccess(),
                                use.access().stages(), use.access().access(), VK_IMAGE_LAYOUT_UNDEFINED, use.access().layout()));
                    } else if (r.image) {
                        list.add(new BarrierSpec(r.id, true, false, 0, 0, use.access().stages(), use.access().access(),
                                VK_IMAGE_LAYOUT_UNDEFINED, use.access().layout()));
                    }
                    state[r.id] = afterFirstUse(use.access(), r.image);
                } else {
                    BarrierSpec b = transition(r, state[r.id], use.access());
                    if (b != null) {
                        list.add(b);
                    }
                    state[r.id] = next(state[r.id], use.access(), b != null, r.image);
                }
                if (r.transientResource() && plan.lastUse()[r.id] == pos) {
                    slotState[plan.slotOf()[r.id]] = state[r.id];
                }
            }
            before.add(list);
        }
        List<BarrierSpec> epilogue = new ArrayList<>();
        for (GraphResource r : g.resources) {
            if (r.finalAccess != null && state[r.id] != null) {
                Access fin = r.finalAccess;
                BarrierSpec b = transition(r, state[r.id], fin);
                if (b == null && fin == Access.HOST_READ && state[r.id].writeStages() != 0) {
                    b = new BarrierSpec(r.id, r.image, false, state[r.id].writeStages(), state[r.id].writeAccess(), fin.stages(),
                            fin.access(), state[r.id].layout(), state[r.id].layout());
                }
                if (b != null) {
                    epilogue.add(b);
                    state[r.id] = next(state[r.id], fin, true, r.image);
                }
            }
        }
        // Transients are reported through their slots; what matters next frame is where the slot was left.
        ResourceState[] finals = state.clone();
        for (GraphResource r : g.resources) {
            if (r.transientResource() && plan.slotOf()[r.id] >= 0) {
                finals[r.id] = slotState[plan.slotOf()[r.id]];
            }
        }
        return new Barriers(before, epilogue, finals);
    }

    /** Uses of one resource in one pass combine: union of stages and accesses, a write if any writes. */
    static List<Pass.Use> merged(FrameGraph g, Pass p) {
        List<Pass.Use> out = new ArrayList<>();
        for (Pass.Use u : p.uses) {
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).resource() == u.resource()) {
                    at = i;
                }
            }
            if (at < 0) {
                out.add(u);
                continue;
            }
            Pass.Use o = out.get(at);
            Access a = o.access(), b = u.access();
            GraphResource r = g.resources.get(u.resource());
            if (r.image && a.layout() != b.layout() && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED && b.layout() != VK_IMAGE_LAYOUT_UNDEFINED) {
                throw new GraphException("pass '" + p.name + "' uses image '" + r.name + "' in two layouts (" + a + ", " + b + ")");
            }
            Access union = new Access(a.name() + "+" + b.name(), a.stages() | b.stages(), a.access() | b.access(),
                    a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : b.layout(), a.write() || b.write());
            out.set(at, new Pass.Use(o.resource(), o.version(), union, Math.max(o.producedVersion(), u.producedVersion())));
        }
        return out;
    }

    private static ResourceState afterFirstUse(Access a, boolean image) {
        if (a.write()) {
            return new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED);
        }
        return new ResourceState(0, 0, 0, 0, a.stages(), image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED);
    }

    /** The barrier needed before {@code a}, given the resource's state, or null when none is. */
    static BarrierSpec transition(GraphResource r, ResourceState s, Access a) {
        boolean layoutChange = r.image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED && s.layout() != a.layout();
        if (layoutChange) {
            // A layout transition is a write: it must follow every earlier access, reads included.
            return new BarrierSpec(r.id, true, false, s.writeStages() | s.readStages(), s.writeAccess(), a.stages() == 0 ? 0 : a.stages(),
                    a.access(), s.layout(), a.layout());
        }
        int layout = s.layout();
        if (a.write()) {
            if (s.readStages() != 0) {
                // Write after read: an execution dependency on the readers (and the last writer) suffices.
                return new BarrierSpec(r.id, r.image, false, s.readStages() | s.writeStages(), s.writeAccess(), a.stages(), a.access(),
                        layout, layout);
            }
            if (s.writeStages() != 0) {
                return new BarrierSpec(r.id, r.image, false, s.writeStages(), s.writeAccess(), a.stages(), a.access(), layout, layout);
            }
            return null;
        }
        if (s.writeStages() == 0) {
            return null;
        }
        boolean visible = (s.visibleStages() & a.stages()) == a.stages() && (s.visibleAccess() & a.readAccess()) == a.readAccess();
        if (visible) {
            return null;
        }
        return new BarrierSpec(r.id, r.image, false, s.writeStages(), s.writeAccess(), a.stages(), a.access(), layout, layout);
    }

    static ResourceState next(ResourceState s, Access a, boolean barrier, boolean image) {
        int layout = image && a.layout() != VK_IMAGE_LAYOUT_UNDEFINED ? a.layout() : s.layout();
        if (a.write()) {
            return new ResourceState(a.stages(), a.writeAccess(), 0, 0, 0, layout);
        }
        if (barrier && layout != s.layout()) {
            // After a layout transition the transition is the last write, visible to this reader.
            return new ResourceState(a.stages(), 0, a.stages(), a.readAccess(), a.stages(), layout);
        }
        long visStages = barrier ? s.visibleStages() | a.stages() : s.visibleStages();
        long visAccess = barrier ? s.visibleAccess() | a.readAccess() : s.visibleAccess();
        return new ResourceState(s.writeStages(), s.writeAccess(), visStages, visAccess, s.readStages() | a.stages(), layout);
    }
}

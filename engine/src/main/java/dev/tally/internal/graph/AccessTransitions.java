package dev.tally.internal.graph;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import dev.tally.internal.vk.ResourceState;

import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;
import static org.lwjgl.vulkan.VK13.*;

/**
 * One resource's state against one access: the barrier the access needs (read after write, write after
 * read or write, a layout change) and the state it leaves; and a pass's uses of one resource merged.
 */
final class AccessTransitions {
    private AccessTransitions() {
    }

    /** Uses of one resource in one pass combine: union of stages and accesses, a write if any writes. */
    static List<Pass.Use> merged(GraphDeclaration g, Pass p) {
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

    /** The state after a resource's first use in a frame, when nothing earlier needs ordering against. */
    static ResourceState afterFirstUse(Access a, boolean image) {
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

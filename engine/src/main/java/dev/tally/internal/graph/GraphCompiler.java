package dev.tally.internal.graph;

import dev.tally.graph.GraphException;

import dev.tally.graph.ImageDesc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Culls, orders and plans memory for a declared frame. Pure logic over the declaration. */
final class GraphCompiler {
    private GraphCompiler() {
    }

    static GraphPlan compile(GraphDeclaration g) {
        return compile(g, PassOrder.DECLARED);
    }

    static GraphPlan compile(GraphDeclaration g, PassOrder passOrder) {
        List<Pass> passes = g.passes;
        int n = passes.size();
        boolean[] needed = new boolean[n];
        ArrayList<Integer> work = new ArrayList<>();
        // Roots: side effects, and writes that escape the frame (imported resources, history).
        for (Pass p : passes) {
            boolean root = p.sideEffect;
            for (Pass.Use u : p.uses) {
                root |= u.access().write() && g.resources.get(u.resource()).escapes();
            }
            if (root) {
                needed[p.index] = true;
                work.add(p.index);
            }
        }
        // Everything a needed pass reads (or modifies) is needed: follow each version to its writer.
        while (!work.isEmpty()) {
            Pass p = passes.get(work.remove(work.size() - 1));
            for (Pass.Use u : p.uses) {
                boolean readsContent = !u.access().write() || u.access().readAccess() != 0;
                GraphResource r = g.resources.get(u.resource());
                int writer = u.version() > 0 ? r.writer(u.version()) : -1;
                if (writer >= 0 && !needed[writer] && (readsContent || r.image)) {
                    // An image written over a previous version still needs that version when it is
                    // loaded (attachments keep their contents), so its writer stays.
                    needed[writer] = true;
                    work.add(writer);
                }
                if (writer >= passes.size() || writer == p.index) {
                    throw new GraphException("pass '" + p.name + "' depends on itself through '" + r.name + "': a cycle");
                }
            }
        }
        List<Integer> kept = new ArrayList<>();
        List<Integer> culled = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            (needed[i] ? kept : culled).add(i);
        }
        List<Integer> order = passOrder.order(List.copyOf(kept), predecessors(g));
        if (order.size() != kept.size() || !new java.util.HashSet<>(order).equals(new java.util.HashSet<>(kept))) {
            throw new GraphException("pass order " + passOrder + " returned " + order + " for the passes " + kept);
        }
        // Declaration order is a valid order: a handle can only come from an earlier pass. Check whichever order was chosen.
        int[] position = new int[n];
        Arrays.fill(position, -1);
        for (int i = 0; i < order.size(); i++) {
            position[order.get(i)] = i;
        }
        for (int i : order) {
            for (Pass.Use u : passes.get(i).uses) {
                int writer = u.version() > 0 ? g.resources.get(u.resource()).writer(u.version()) : -1;
                if (writer >= 0 && position[writer] >= 0 && position[writer] >= position[i]) {
                    throw new GraphException("pass '" + passes.get(i).name + "' needs '" + g.resources.get(u.resource()).name
                            + "' from pass '" + passes.get(writer).name + "', which runs after it: a cycle");
                }
            }
        }
        List<List<Integer>> predecessors = predecessors(g);
        for (int i : order) {
            for (int pred : predecessors.get(i)) {
                if (position[pred] >= position[i]) {
                    throw new GraphException("pass order " + passOrder + " runs pass '" + passes.get(i).name + "' before pass '"
                            + passes.get(pred).name + "', which must come first (a write would overtake a read or another write)");
                }
            }
        }
        int resources = g.resources.size();
        int[] first = new int[resources];
        int[] last = new int[resources];
        Arrays.fill(first, -1);
        Arrays.fill(last, -1);
        for (int pos = 0; pos < order.size(); pos++) {
            for (Pass.Use u : passes.get(order.get(pos)).uses) {
                if (first[u.resource()] < 0) {
                    first[u.resource()] = pos;
                }
                last[u.resource()] = pos;
            }
        }
        int[] slotOf = new int[resources];
        Arrays.fill(slotOf, -1);
        List<GraphPlan.Slot> slots = alias(g, first, last, slotOf);
        return new GraphPlan(List.copyOf(order), List.copyOf(culled), slots, slotOf, first, last);
    }

    /**
     * By pass index: the passes that must run before it. The writer of a version precedes its users;
     * the users of a version precede the writer of the next one (write after read and write after write).
     */
    static List<List<Integer>> predecessors(GraphDeclaration g) {
        List<List<Integer>> preds = new ArrayList<>();
        for (int i = 0; i < g.passes.size(); i++) {
            preds.add(new ArrayList<>());
        }
        for (Pass p : g.passes) {
            for (Pass.Use u : p.uses) {
                GraphResource r = g.resources.get(u.resource());
                int writer = u.version() > 0 ? r.writer(u.version()) : -1;
                if (writer >= 0 && writer != p.index) {
                    preds.get(p.index).add(writer);
                }
                int next = u.version() + 1 < r.writerCount() ? r.writer(u.version() + 1) : -1;
                if (next >= 0 && next != p.index) {
                    preds.get(next).add(p.index);
                }
            }
        }
        return preds;
    }

    /**
     * Interval assignment: transients sorted by first use go into the slot of the same kind whose last
     * member ended before they start, preferring the closest size; otherwise a new slot.
     */
    private static List<GraphPlan.Slot> alias(GraphDeclaration g, int[] first, int[] last, int[] slotOf) {
        List<GraphResource> transients = new ArrayList<>();
        for (GraphResource r : g.resources) {
            if (r.transientResource() && first[r.id] >= 0) {
                transients.add(r);
            }
        }
        transients.sort((a, b) -> first[a.id] != first[b.id] ? Integer.compare(first[a.id], first[b.id]) : Integer.compare(a.id, b.id));
        List<List<Integer>> members = new ArrayList<>();
        List<Boolean> kinds = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        for (GraphResource r : transients) {
            int best = -1;
            for (int s = 0; s < members.size(); s++) {
                if (kinds.get(s) != r.image || ends.get(s) >= first[r.id]) {
                    continue;
                }
                if (r.image && !sameImageShape(g, members.get(s).get(0), r)) {
                    continue;
                }
                if (best < 0 || Math.abs(sizes.get(s) - r.bytes()) < Math.abs(sizes.get(best) - r.bytes())) {
                    best = s;
                }
            }
            if (best < 0) {
                members.add(new ArrayList<>());
                kinds.add(r.image);
                sizes.add(0L);
                ends.add(-1);
                best = members.size() - 1;
            }
            members.get(best).add(r.id);
            sizes.set(best, Math.max(sizes.get(best), r.bytes()));
            ends.set(best, last[r.id]);
            slotOf[r.id] = best;
        }
        List<GraphPlan.Slot> slots = new ArrayList<>();
        for (int s = 0; s < members.size(); s++) {
            slots.add(new GraphPlan.Slot(kinds.get(s), sizes.get(s), List.copyOf(members.get(s))));
        }
        return slots;
    }

    /** Images alias only with images of the same format and usage (same memory requirements in practice). */
    private static boolean sameImageShape(GraphDeclaration g, int member, GraphResource r) {
        ImageDesc a = g.resources.get(member).imageDesc;
        return a.format() == r.imageDesc.format() && a.usage() == r.imageDesc.usage();
    }
}

package dev.tally.internal.graph;

import java.util.HashSet;
import java.util.Set;

/** Graphviz DOT of one compiled frame: passes (boxes), resource versions (ellipses), culled passes dashed. */
public final class DotExport {
    private DotExport() {
    }

    public static String toDot(GraphDeclaration g, GraphPlan plan) {
        Set<Integer> culled = new HashSet<>(plan.culled());
        StringBuilder b = new StringBuilder("digraph tally {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n");
        for (Pass p : g.passes) {
            String style = culled.contains(p.index) ? "dashed" : "filled";
            String color = switch (p.kind) {
                case COMPUTE -> "#cfe3ff";
                case GRAPHICS -> "#d9f2d0";
                case TRANSFER -> "#ffe3c2";
            };
            b.append(String.format("  p%d [shape=box, style=\"%s,rounded\", fillcolor=\"%s\", label=\"%s\\n%s%s\"];%n", p.index,
                    culled.contains(p.index) ? "dashed" : style, color, esc(p.name), p.kind.name().toLowerCase(),
                    culled.contains(p.index) ? " (culled)" : ""));
        }
        Set<String> nodes = new HashSet<>();
        for (Pass p : g.passes) {
            for (Pass.Use u : p.uses) {
                GraphResource r = g.resources.get(u.resource());
                if (!u.access().write() || u.access().readAccess() != 0) {
                    String in = node(b, nodes, r, u.version());
                    b.append(String.format("  %s -> p%d [label=\"%s\"];%n", in, p.index, u.access().name()));
                }
                if (u.producedVersion() >= 0) {
                    String out = node(b, nodes, r, u.producedVersion());
                    b.append(String.format("  p%d -> %s [label=\"%s\"];%n", p.index, out, u.access().name()));
                }
            }
        }
        return b.append("}\n").toString();
    }

    private static String node(StringBuilder b, Set<String> nodes, GraphResource r, int version) {
        String id = "r" + r.id + "v" + version;
        if (nodes.add(id)) {
            String origin = switch (r.origin) {
                case TRANSIENT -> "transient";
                case IMPORTED -> "imported";
                case SCRATCH -> "scratch";
                case HISTORY_PREVIOUS -> "history (previous)";
                case HISTORY_CURRENT -> "history";
            };
            b.append(String.format("  %s [shape=ellipse, label=\"%s v%d\\n%s, %s\"];%n", id, esc(r.name), version, origin, esc(r.describe())));
        }
        return id;
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}

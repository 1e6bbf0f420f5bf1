package dev.tally.internal.graph;
import dev.tally.graph.PassContext;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Access;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Frames executed with no GPU: a {@link GraphRuntime} on a {@link RecordingBackend}. {@link #next()}
 * begins a frame; {@link #execute} records it (passes run their execute steps and record nothing) and
 * reads back what reached the backend: the passes in the order recorded and the barriers at each point.
 * Also the imports that describe a resource by size and entry state instead of a GPU object.
 */
final class Planning {
    final RecordingBackend backend = new RecordingBackend();
    final GraphRuntime runtime = new GraphRuntime(backend, false);
    private long frame;

    /** A frame of a runtime of its own: executable at any time by {@link #executed}. */
    static GraphDeclaration graph() {
        return new Planning().next();
    }

    /** Begins the next frame (its timeline value is its number plus one). */
    GraphDeclaration next() {
        GraphDeclaration g = runtime.begin(frame, frame + 1);
        frame++;
        return g;
    }

    /** A pass's execute step that records nothing. */
    static <T> BiConsumer<T, PassContext> nothing() {
        return (data, ctx) -> {
        };
    }

    /** The execute step of a pass the graph must cull. */
    static <T> BiConsumer<T, PassContext> culled() {
        return (data, ctx) -> fail("pass executed, but it should have been culled");
    }

    /** Executes {@code g} (begun by a {@code Planning}) on one lane. */
    static Executed executed(GraphDeclaration g) {
        return execute(g, false);
    }

    /** Executes {@code g} in batches on the lanes its runtime plans for. */
    static Executed executedInBatches(GraphDeclaration g) {
        return execute(g, true);
    }

    private static Executed execute(GraphDeclaration g, boolean inBatches) {
        RecordingBackend b = (RecordingBackend) g.runtime().backend();
        int from = b.calls.size();
        List<GraphRuntime.RecordedBatch> recorded;
        if (inBatches) {
            recorded = g.runtime().recordBatches(g, lane -> null);
        } else {
            g.runtime().record(g, null);
            recorded = List.of();
        }
        return Executed.parse(g, g.runtime().lastPlan(), g.runtime().lastBarriers(), b.calls.subList(from, b.calls.size()), recorded);
    }

    /**
     * One executed frame: its plan, the passes in recorded order and the barriers recorded at each point,
     * gathered into the shape of {@link BarrierPlanner.Barriers} (final states and batches as recorded).
     */
    record Executed(GraphDeclaration g, GraphPlan plan, BarrierPlanner.Barriers barriers, List<String> passes, List<RecordingBackend.Call> calls,
                    List<GraphRuntime.RecordedBatch> batches) {
        static Executed parse(GraphDeclaration g, GraphPlan plan, BarrierPlanner.Barriers used, List<RecordingBackend.Call> calls,
                              List<GraphRuntime.RecordedBatch> batches) {
            int n = plan.order().size();
            List<List<BarrierSpec>> before = new ArrayList<>(), after = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                before.add(null);
                after.add(null);
            }
            List<String> passes = new ArrayList<>();
            List<List<BarrierSpec>> outside = new ArrayList<>();   // barrier points outside any pass: prologue, join, epilogue
            int pos = -1;
            boolean sawBefore = false;
            for (RecordingBackend.Call c : calls) {
                if (c instanceof RecordingBackend.Label l) {
                    passes.add(l.pass());
                    pos = positionOf(g, plan, l.pass());
                    sawBefore = false;
                } else if (c instanceof RecordingBackend.EndLabel) {
                    pos = -1;
                } else if (c instanceof RecordingBackend.Barriers b) {
                    if (pos < 0) {
                        outside.add(b.specs());
                    } else if (!sawBefore) {
                        before.set(pos, b.specs());
                        sawBefore = true;
                    } else {
                        after.set(pos, b.specs());
                    }
                }
            }
            if (outside.size() != 3) {
                throw new AssertionError("expected the prologue, join and epilogue outside the passes, got " + outside.size() + " lists: " + calls);
            }
            List<QueueBatch> queueBatches = new ArrayList<>();
            batches.forEach(rb -> queueBatches.add(rb.batch()));
            BarrierPlanner.Barriers recorded = new BarrierPlanner.Barriers(before, outside.get(2), used.finalStates(), outside.get(0), after,
                    outside.get(1), batches.isEmpty() ? used.batches() : queueBatches);
            return new Executed(g, plan, recorded, passes, List.copyOf(calls), batches);
        }

        private static int positionOf(GraphDeclaration g, GraphPlan plan, String pass) {
            for (int i = 0; i < plan.order().size(); i++) {
                if (g.passes.get(plan.order().get(i)).name.equals(pass)) {
                    return i;
                }
            }
            throw new AssertionError("pass '" + pass + "' recorded but not in the plan");
        }

        /** The barriers recorded before {@code pass} ran. */
        List<BarrierSpec> before(String pass) {
            for (int i = 0; i < plan.order().size(); i++) {
                if (g.passes.get(plan.order().get(i)).name.equals(pass)) {
                    return barriers.beforePass().get(i);
                }
            }
            throw new AssertionError("pass '" + pass + "' was not recorded (culled: " + plan.culled() + ")");
        }
    }

    // Resources described without a GPU object: what an import would find on its buffer or image.

    static BufferHandle importBuffer(GraphDeclaration g, String name, long size, ResourceState entry, Access finalAccess) {
        return g.importDescribed(name, GraphResource.Origin.IMPORTED, g.importedDesc(size), entry, finalAccess);
    }

    static BufferHandle importScratch(GraphDeclaration g, String name, long size, ResourceState entry) {
        return g.importDescribed(name, GraphResource.Origin.SCRATCH, BufferDesc.of(size), entry, null);
    }

    static ImageHandle importImage(GraphDeclaration g, String name, ImageDesc desc, ResourceState entry, Access finalAccess) {
        return g.importDescribed(name, desc, entry, finalAccess);
    }

    static GraphDeclaration.History history(GraphDeclaration g, String name, long size, ResourceState previousEntry, ResourceState currentEntry) {
        BufferHandle current = g.importDescribed(name, GraphResource.Origin.HISTORY_CURRENT, BufferDesc.of(size), currentEntry, null);
        BufferHandle previous = g.importDescribed(name + "@prev", GraphResource.Origin.HISTORY_PREVIOUS, BufferDesc.of(size), previousEntry, null);
        return new GraphDeclaration.History(previous, current);
    }
}

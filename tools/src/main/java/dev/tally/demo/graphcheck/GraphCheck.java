package dev.tally.demo.graphcheck;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameBatch;
import dev.tally.LaneCommands;
import dev.tally.Tally;
import dev.tally.graph.GraphException;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.vk.ValidationLog;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs graphs under variants on one Tally and compares what each run copied to the host. The first variant
 * is the reference; any other whose hash differs, any validation message during a run, and any run the
 * graph compiler refuses is a failure naming the graph, the order and the variant.
 */
public final class GraphCheck implements AutoCloseable {
    /** What one run of one graph gave. */
    public record Outcome(CheckedGraph graph, Variant variant, String hash, int maxBatches, String failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final Tally tally;
    private final GraphCheckKernels kernels;
    private final int frames;

    /** @param frames frames per run (at least 1) */
    public GraphCheck(Tally tally, int frames) {
        if (frames < 1) {
            throw new IllegalArgumentException("frames per run: " + frames + "; expected at least 1");
        }
        this.tally = tally;
        this.frames = frames;
        this.kernels = new GraphCheckKernels(tally);
    }

    /** The random graph of {@code seed}. */
    public CheckedGraph randomGraph(long seed) {
        return randomGraph(seed, RandomGraph.Fault.NONE);
    }

    /** The random graph of {@code seed} with a fault built in (to show that the check catches it). */
    public CheckedGraph randomGraph(long seed, RandomGraph.Fault fault) {
        return new RandomGraph(seed, kernels, fault);
    }

    /** Runs {@code graph} under each variant; the first is the reference the others must match. */
    public List<Outcome> check(CheckedGraph graph, List<Variant> variants) {
        List<Outcome> out = new ArrayList<>();
        String reference = null;
        for (Variant v : variants) {
            Outcome o = run(graph, v);
            if (!o.failed() && reference == null) {
                reference = o.hash();
            } else if (!o.failed() && !o.hash().equals(reference)) {
                o = new Outcome(graph, v, o.hash(), o.maxBatches(), "output hash " + o.hash() + " differs from " + reference + " of "
                        + variants.get(0));
            }
            out.add(o);
        }
        return out;
    }

    /** One run: fresh state, {@code frames} frames recorded in batches and submitted by Tally, the copies hashed. */
    public Outcome run(CheckedGraph graph, Variant v) {
        GraphRuntime graphs = Engine.of(tally).graphs();
        graphs.configureAsync(v.async(), true);
        graphs.debugPassOrder(v.order());
        graphs.debugPoisonTransients(v.poison());
        ValidationLog log = Engine.of(tally).context().validationLog();
        int before = log.total();
        int beforeMessages = log.messages().size();
        int maxBatches = 0;
        String hash;
        try (LaneCommands lanes = tally.laneCommands(); HostCopies copies = new HostCopies(Engine.of(tally).context());
             CheckedGraph.Run run = graph.start(tally)) {
            for (int f = 0; f < frames; f++) {
                Frame frame = tally.beginFrame();
                List<FrameBatch> batches;
                try {
                    run.declare(frame, f, copies);
                    batches = frame.recordBatches(lanes);
                } catch (GraphException e) {
                    frame.abandon();
                    return new Outcome(graph, v, null, maxBatches, "the graph compiler refused it: " + e.getMessage());
                }
                maxBatches = Math.max(maxBatches, batches.size());
                frame.submit(batches);
            }
            hash = copies.hash();
        } finally {
            graphs.configureAsync(dev.tally.graph.AsyncMode.OFF, false);
            graphs.debugPassOrder(dev.tally.internal.graph.PassOrder.DECLARED);
        }
        int messages = log.total() - before;
        if (messages > 0) {
            List<String> all = log.messages();
            String first = all.size() > beforeMessages ? all.get(beforeMessages) : "(message not kept)";
            return new Outcome(graph, v, hash, maxBatches, messages + " validation message(s), the first: " + first);
        }
        return new Outcome(graph, v, hash, maxBatches, null);
    }

    @Override
    public void close() {
        Engine.of(tally).context().waitIdle();
        kernels.close();
    }
}

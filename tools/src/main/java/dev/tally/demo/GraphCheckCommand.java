package dev.tally.demo;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.app.DemoGraph;
import dev.tally.demo.graphcheck.CheckedGraph;
import dev.tally.demo.graphcheck.GraphCheck;
import dev.tally.demo.graphcheck.Variant;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./tally graphcheck}: the barrier-correctness harness. The demo's graph and a seeded set of random
 * legal graphs run under variants (declared and random legal pass orders, NaN-poisoned transients, async
 * compute off and on); every variant must copy out the same bytes as the reference and validation
 * (synchronization included) must stay silent.
 */
@CommandLine.Command(name = "graphcheck", mixinStandardHelpOptions = true,
        description = {"Barrier-correctness harness: run the demo's graph and random legal graphs under random pass orders, NaN-poisoned",
                "transients and async compute off/on; outputs (images and buffers) must hash the same and validation must stay silent.",
                "Validation is always on. Exit 1 names the graph, the order and the variant of the first difference."})
public final class GraphCheckCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--graphs", defaultValue = "20", paramLabel = "N", description = "random graphs to check (default ${DEFAULT-VALUE})")
    int graphs;

    @CommandLine.Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "seed of the first random graph; graph i has seed S+i (default ${DEFAULT-VALUE})")
    long seed;

    @CommandLine.Option(names = "--frames", defaultValue = "4", paramLabel = "F", description = "frames per run (default ${DEFAULT-VALUE})")
    int frames;

    @CommandLine.Option(names = "--orders", defaultValue = "3", paramLabel = "R", description = "random legal orders per graph (default ${DEFAULT-VALUE})")
    int orders;

    @CommandLine.Option(names = "--demo", defaultValue = "on", paramLabel = "on|off", description = "also check the demo's graph (default ${DEFAULT-VALUE})")
    String demo;

    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        if (graphs < 0) {
            throw new UserInputException("--graphs " + graphs + ": expected 0 or more");
        }
        if (frames < 1 || frames > 1000) {
            throw new UserInputException("--frames " + frames + ": expected 1 to 1000");
        }
        if (orders < 0 || orders > 100) {
            throw new UserInputException("--orders " + orders + ": expected 0 to 100");
        }
        if (!demo.equals("on") && !demo.equals("off")) {
            throw new UserInputException("--demo " + demo + ": expected on or off");
        }
        common.validate = true;
        Config config = common.config();
        long start = System.nanoTime();
        try (Tally tally = Tally.open(config); GraphCheck check = new GraphCheck(tally, frames)) {
            var ctx = Engine.of(tally).context();
            System.out.println("graphcheck on " + ctx.info().name() + ": " + (ctx.asyncQueue() != null
                    ? "async compute queue (family " + ctx.asyncQueueFamily() + (ctx.asyncQueueFamily() != ctx.queueFamily() ? ", dedicated" : "")
                    + ")" : "one queue (async lanes split into batches on it)") + ", " + frames + " frames per run, validation on");
            List<CheckedGraph> all = new ArrayList<>();
            List<Long> orderSeeds = new ArrayList<>();   // random orders are drawn from the graph's seed
            if (demo.equals("on")) {
                all.add(new DemoGraph(64, 36));
                orderSeeds.add(seed - 1);
            }
            for (int i = 0; i < graphs; i++) {
                all.add(check.randomGraph(seed + i));
                orderSeeds.add(seed + i);
            }
            int runs = 0;
            for (int i = 0; i < all.size(); i++) {
                CheckedGraph graph = all.get(i);
                List<GraphCheck.Outcome> outcomes = check.check(graph, Variant.standard(orderSeeds.get(i), orders));
                runs += outcomes.size();
                int batches = outcomes.stream().mapToInt(GraphCheck.Outcome::maxBatches).max().orElse(0);
                for (GraphCheck.Outcome o : outcomes) {
                    if (o.failed()) {
                        System.err.println("graphcheck: FAILED graph '" + graph.name() + "', " + o.variant() + ": " + o.failure());
                        System.out.println("graphcheck: FAILED (graph '" + graph.name() + "', " + o.variant() + ")");
                        return 1;
                    }
                }
                System.out.printf(Locale.ROOT, "  %-14s %d variants, hash %s, up to %d batches per frame%n", graph.name(), outcomes.size(),
                        outcomes.get(0).hash(), batches);
            }
            System.out.printf(Locale.ROOT, "graphcheck: %d graphs, %d runs identical; validation: %d messages (%.1f s)%n", all.size(), runs,
                    ctx.validationLog().total(), (System.nanoTime() - start) / 1e9);
            return ctx.validationLog().total() == 0 ? 0 : 1;
        }
    }
}

package dev.tally.demo;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.graphcheck.CheckedGraph;
import dev.tally.demo.graphcheck.GraphCheck;
import dev.tally.demo.graphcheck.RandomGraph;
import dev.tally.demo.graphcheck.Variant;
import dev.tally.graph.AsyncMode;
import dev.tally.internal.graph.PassOrder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * graphcheck passes on lavapipe with validation on, and it can fail: without the graph's barriers
 * (synchronization validation), with a pass that leaves half its output unwritten (the hash under NaN
 * poisoning), and with an illegal pass order (the compiler refuses it); each failure names the graph,
 * the order and the variant.
 */
class GraphCheckTest {
    @Test
    void passesOnLavapipeWithValidation() {
        Cli.Run run = ToolsCli.run("graphcheck", "--graphs", "6", "--frames", "3");
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.out().contains("graphcheck: 7 graphs, 42 runs identical; validation: 0 messages"), run::toString);
        assertTrue(run.out().matches("(?s).*random 1 +6 variants.*random 6 +6 variants.*"), run::toString);
        assertTrue(run.out().matches("(?s).*up to [3-9] batches per frame.*"), "async on splits frames into batches: " + run);
        assertTrue(run.out().matches("(?s).*demo \\S+ +6 variants, hash \\S+, up to [2-9] batches per frame.*"),
                "the demo's exposure chain is an async candidate: its frames split into batches: " + run);
    }

    @Test
    void withoutBarriersItFailsNamingGraphOrderAndVariant() {
        Cli.Run run = ToolsCli.run("graphcheck", "--graphs", "2", "--frames", "2", "--demo", "off", "--set", "debug.skipBarriers=true");
        assertEquals(1, run.status(), run::toString);
        assertTrue(run.err().contains("graphcheck: FAILED graph 'random 1', order declared, poison off, async off: "), run::toString);
        assertTrue(run.err().contains("SYNC-HAZARD-"), run::toString);
    }

    @Test
    void badOptionsAreOneLineAndExit2() {
        Cli.Run run = ToolsCli.run("graphcheck", "--frames", "0");
        assertEquals(2, run.status(), run::toString);
        assertTrue(run.err().contains("--frames 0: expected 1 to 1000"), run::toString);
    }

    private static Tally open() {
        return Tally.open(Config.load(null, List.of("validation.enabled=true", dev.tally.demo.CommonOptions.LIVE_SHADERS)));
    }

    @Test
    void aPassThatLeavesPartOfItsOutputUnwrittenChangesTheHashUnderPoison() {
        try (Tally tally = open(); GraphCheck check = new GraphCheck(tally, 2)) {
            CheckedGraph sound = check.randomGraph(3);
            CheckedGraph faulty = check.randomGraph(3, RandomGraph.Fault.HALF_WRITE);
            List<Variant> variants = List.of(new Variant(PassOrder.DECLARED, false, AsyncMode.OFF), new Variant(PassOrder.DECLARED, true, AsyncMode.OFF));
            assertTrue(check.check(sound, variants).stream().noneMatch(GraphCheck.Outcome::failed));
            List<GraphCheck.Outcome> out = check.check(faulty, variants);
            assertFalse(out.get(0).failed(), out.get(0)::toString);
            assertTrue(out.get(1).failed(), "NaN poison shows the unwritten half");
            assertTrue(out.get(1).failure().startsWith("output hash "), out.get(1).failure());
            assertEquals(0, Engine.of(tally).context().validationLog().total(), () -> Engine.of(tally).context().validationLog().messages().toString());
        }
    }

    @Test
    void anIllegalOrderIsRefusedByTheCompilerAndReportedAsAFailure() {
        PassOrder reversed = new PassOrder() {
            @Override
            public List<Integer> order(List<Integer> needed, List<List<Integer>> predecessors) {
                List<Integer> out = new ArrayList<>(needed);
                Collections.reverse(out);
                return out;
            }

            @Override
            public String toString() {
                return "reversed";
            }
        };
        try (Tally tally = open(); GraphCheck check = new GraphCheck(tally, 2)) {
            GraphCheck.Outcome o = check.run(check.randomGraph(2), new Variant(reversed, false, AsyncMode.ON));
            assertTrue(o.failed());
            assertTrue(o.failure().startsWith("the graph compiler refused it: "), o.failure());
            assertTrue(o.failure().contains("which runs after it"), o.failure());
            assertTrue(o.variant().toString().contains("order reversed"), o.variant()::toString);
            // The refused frame was given up cleanly: the same Tally still checks a sound variant.
            assertFalse(check.run(check.randomGraph(2), new Variant(PassOrder.DECLARED, false, AsyncMode.ON)).failed());
        }
    }
}

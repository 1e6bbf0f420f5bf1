package dev.tally.demo.jmh;

import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphPlan;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The no-op backend's benchmark graphs are what they say: every declared pass compiles and is kept (none culled, so
 * the time per frame is the whole graph's), frame after frame with the readback slot turning over. No GPU involved.
 */
class GraphCpuBenchmarkTest {
    private static void assertWholeGraph(String what, Consumer<FrameGraph> declare, dev.tally.internal.graph.GraphRuntime runtime,
                                         int passes) {
        for (long f = 0; f < 5; f++) {
            FrameGraph g = runtime.begin(f, f + 1);
            declare.accept(g);
            GraphPlan plan = GraphDeclaration.of(g).compile();
            assertEquals(passes, GraphDeclaration.of(g).passCount(), what + ": passes declared in frame " + f);
            assertEquals(List.of(), plan.culled(), what + ": culled in frame " + f);
            runtime.record(GraphDeclaration.of(g), null);
        }
    }

    @Test
    void demoFrameKeepsItsEightPasses() {
        GraphCpuBenchmark.DemoFrame s = new GraphCpuBenchmark.DemoFrame();
        s.setUp();
        try {
            assertWholeGraph("demo frame", s::declare, s.runtime, 8);
        } finally {
            s.tearDown();
        }
    }

    @Test
    void exampleFrameKeepsItsEightPasses() {
        GraphCpuBenchmark.ExampleFrame s = new GraphCpuBenchmark.ExampleFrame();
        s.setUp();
        try {
            assertWholeGraph("example frame", s::declare, s.runtime, 8);
        } finally {
            s.tearDown();
        }
    }

    @Test
    void chainKeepsEveryPass() {
        GraphCpuBenchmark.Chain s = new GraphCpuBenchmark.Chain();
        s.passes = 8;
        s.setUp();
        try {
            assertWholeGraph("chain", s::declare, s.runtime, 8);
        } finally {
            s.tearDown();
        }
    }
}

package dev.tally.demo.jmh;

import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphPlan;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The no-op backend's benchmark graphs are what they say: every declared pass compiles and is kept (none culled, so
 * the time per frame is the whole graph's), frame after frame with the readback slot turning over. No GPU involved.
 */
class GraphCpuBenchmarkTest {
    /** Five frames of {@code s} on its own runtime: every declared pass compiled and kept. */
    private static void assertWholeGraph(String what, GraphCpuBenchmark.GraphFrames s, int passes) {
        s.setUpRuntime();
        try {
            for (long f = 0; f < 5; f++) {
                FrameGraph g = s.runtime.begin(f, f + 1);
                s.declare(g);
                GraphPlan plan = GraphDeclaration.of(g).compile();
                assertEquals(passes, GraphDeclaration.of(g).passCount(), what + ": passes declared in frame " + f);
                assertEquals(List.of(), plan.culled(), what + ": culled in frame " + f);
                s.runtime.record(GraphDeclaration.of(g), null);
            }
        } finally {
            s.tearDown();
        }
    }

    @Test
    void demoFrameKeepsItsEightPasses() {
        assertWholeGraph("demo frame", new GraphCpuBenchmark.DemoFrame(), 8);
    }

    @Test
    void evictedDemoFrameKeepsItsEightPassesAndEvictsAcrossItsBuffer() throws ReflectiveOperationException {
        GraphCpuBenchmark.EvictedDemoFrame s = new GraphCpuBenchmark.EvictedDemoFrame();
        s.evictMiB = 4;
        s.allocate();
        s.evict();
        java.lang.reflect.Field f = GraphCpuBenchmark.EvictedDemoFrame.class.getDeclaredField("lines");
        f.setAccessible(true);
        long[] lines = (long[]) f.get(s);
        int touched = 0;
        for (int i = 0; i < lines.length; i += 8) {
            touched += lines[i] != 0 ? 1 : 0;
        }
        // 20,000 random writes over 65,536 lines: about 17,000 distinct lines (fewer where writes collide); a walk that
        // repeated, or a mask that kept it in a corner of the buffer, would touch far fewer.
        assertTrue(touched > 15_000, "lines written by one eviction: " + touched);
        assertWholeGraph("evicted demo frame", s, 8);
    }

    @Test
    void exampleFrameKeepsItsEightPasses() {
        assertWholeGraph("example frame", new GraphCpuBenchmark.ExampleFrame(), 8);
    }

    @Test
    void chainKeepsEveryPass() {
        GraphCpuBenchmark.Chain s = new GraphCpuBenchmark.Chain();
        s.passes = 8;
        s.setUpNames();
        assertWholeGraph("chain", s, 8);
    }
}

package dev.tally.readback;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A frame whose GPU work takes at least 100 ms: the CPU side of that frame (begin, record, submit, the
 * ring's latest sample) returns long before the GPU is done and counts no wait. A CPU side that waited
 * anywhere for the GPU would take the GPU's 100 ms and move the wait counters.
 */
class GpuBusyFrameTest extends GpuTestBase {
    private static final int GROUPS = 64;

    private void frame(FrameCommands commands, ComputeKernel busy, ReadbackRing ring, int iterations) {
        Frame frame = runtime.beginFrame();
        var cmd = commands.begin(frame);
        FrameGraph g = frame.graph();
        BufferHandle out = g.addPass("busy", PassKind.COMPUTE, b -> b.write(b.create("busy.out", BufferDesc.of(4L * 64 * GROUPS)),
                Access.COMPUTE_WRITE), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                busy.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 4L * 64 * GROUPS)), stack.malloc(4).putInt(0, iterations),
                        GROUPS, 1);
            }
        });
        ring.capture(g, List.of(ReadbackRing.Region.of(out, 16)));
        frame.record(cmd);
        commands.end(cmd);
        frame.submit(cmd);
        ring.latest();
    }

    @Test
    void theCpuSideOfABusyFrameNeitherWaitsNorTakesTheGpusTime() {
        var ctx = runtime.context();
        try (FrameCommands commands = new FrameCommands(runtime);
             ComputeKernel busy = new ComputeKernel(ctx, runtime.compiler(), runtime.pipelineCache(), "test_busy.comp", Map.of(), null, 1, 4);
             ReadbackRing ring = runtime.readback("busy.readback", 16, ReadbackRing.Mode.FIXED)) {
            for (int i = 0; i < 3; i++) {
                frame(commands, busy, ring, 1);   // warm: pipelines, plan, transients
            }
            // The GPU's speed varies from machine to machine: make the busy frames longer until one measures 100 ms.
            int iterations = 60_000;
            double busiest = 0;
            double cpuMillis = Double.MAX_VALUE;
            long waits = 0;
            for (int attempt = 0; attempt < 5 && busiest < 100; attempt++, iterations *= 2) {
                ctx.waitIdle();
                runtime.graphs().collectTimings();
                long waitsBefore = ctx.waits().total().count();
                long samplesBefore = runtime.graphs().stats().samples("busy");
                // Two busy frames back to back (with two frames in flight neither needs to pace); the faster CPU side
                // counts, so that another process stealing the CPU for a moment does not decide the test.
                cpuMillis = Double.MAX_VALUE;
                for (int i = 0; i < 2; i++) {
                    long t0 = System.nanoTime();
                    frame(commands, busy, ring, iterations);
                    cpuMillis = Math.min(cpuMillis, (System.nanoTime() - t0) / 1e6);
                }
                waits = ctx.waits().total().count() - waitsBefore;
                ctx.waitIdle();
                runtime.graphs().collectTimings();
                assertEquals(samplesBefore + 2, runtime.graphs().stats().samples("busy"), "every frame's timestamps arrived");
                busiest = runtime.graphs().stats().latestMicros("busy") / 1000;
            }
            // The premise: those frames really kept the GPU busy for 100 ms or more (their own timestamps).
            assertTrue(busiest >= 100, "the busy frame's GPU time is " + busiest + " ms");
            assertEquals(0, waits, "the frame path waited");
            assertTrue(cpuMillis < 5, "the CPU side took " + cpuMillis + " ms of the GPU's " + busiest + " ms");
        }
    }
}

package dev.tally.internal.graph;

import dev.tally.graph.BufferHandle;

import dev.tally.internal.engine.Engine;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import dev.tally.graph.BufferDesc;

import dev.tally.Frame;
import dev.tally.FrameBatch;
import dev.tally.FrameCommands;
import dev.tally.LaneCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * On lavapipe (one queue family with one queue): async compute on runs the same graph on the one queue,
 * one batch per frame, with results identical to async off; the lanes split on the one queue (batches
 * with semaphores between them) give the same results too, as do random legal pass orders with
 * transients poisoned with NaN. Synchronization validation is on and must stay silent.
 */
class AsyncFallbackGpuTest {
    private static final int COUNT = 4096;
    private static final int FRAMES = 12;

    /** What a run produced: each frame's history value and final buffer, and how many batches frames had. */
    private record Run(List<Float> history, List<Float> results, int maxBatches) {
    }

    private enum Submit { FRAME_CMD, BATCHES }

    private static Run run(String asyncMode, boolean split, Long orderSeed, boolean poison, Submit submit) {
        List<String> cfg = new ArrayList<>(List.of("validation.enabled=true", "async.mode=" + asyncMode, "debug.asyncOneQueue=" + split));
        try (Tally tally = Tally.open(Config.load(null, cfg))) {
            var ctx = Engine.of(tally).context();
            assertNull(ctx.asyncQueue(), "lavapipe has one queue: no async queue");
            GraphRuntime graphs = Engine.of(tally).graphs();
            if (orderSeed != null) {
                graphs.debugPassOrder(PassOrder.random(orderSeed));
            }
            graphs.debugPoisonTransients(poison);
            List<Float> history = new ArrayList<>();
            List<Float> results = new ArrayList<>();
            int maxBatches = 0;
            try (FrameCommands commands = tally.frameCommands();
                 LaneCommands lanes = tally.laneCommands();
                 ComputeKernel fill = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_fill.comp", Map.of(), null, 1, 12);
                 ComputeKernel accumulate = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_accumulate.comp", Map.of(), null, 3, 0);
                 TrackedBuffer out = new TrackedBuffer(ctx, "out", 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK)) {
                HistoryBuffer running = graphs.history("running", BufferDesc.of(16), 0);
                for (int f = 0; f < FRAMES; f++) {
                    Frame frame = tally.beginFrame();
                    GraphDeclaration g = GraphDeclaration.of(frame.graph());
                    float a = f % 5, b = 1;
                    BufferHandle values = g.addPass("fill", PassKind.COMPUTE, s -> s.write(s.create("values", BufferDesc.of(4L * COUNT)),
                            Access.COMPUTE_WRITE), (h, c) -> {
                        try (MemoryStack stack = MemoryStack.stackPush()) {
                            fill.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 4L * COUNT)),
                                    stack.malloc(12).putInt(0, COUNT).putFloat(4, a).putFloat(8, b), 4, 1);
                        }
                    });
                    BufferHandle other = g.addPass("fill-other", PassKind.COMPUTE, s -> s.write(s.create("other", BufferDesc.of(4L * COUNT)),
                            Access.COMPUTE_WRITE), (h, c) -> {
                        try (MemoryStack stack = MemoryStack.stackPush()) {
                            fill.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 4L * COUNT)),
                                    stack.malloc(12).putInt(0, COUNT).putFloat(4, 10 * a).putFloat(8, 2), 4, 1);
                        }
                    });
                    GraphDeclaration.History hist = g.history(running);
                    record Acc(BufferHandle prev, BufferHandle in, BufferHandle out) {
                    }
                    Acc acc = g.addPass("accumulate", PassKind.COMPUTE, s -> {
                        s.asyncCompute();
                        return new Acc(s.read(hist.previous(), Access.COMPUTE_READ), s.read(values, Access.COMPUTE_READ),
                                s.write(hist.current(), Access.COMPUTE_WRITE));
                    }, (h, c) -> accumulate.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h.prev()), 0, 4),
                            DescriptorSets.Range.of(c.buffer(h.in()), 64, 4), DescriptorSets.Range.of(c.buffer(h.out()), 0, 4)), null, 1, 1));
                    BufferHandle result = g.importBuffer("out", out, Access.HOST_READ);
                    g.addPass("combine", PassKind.COMPUTE, s -> new Acc(s.read(acc.out(), Access.COMPUTE_READ), s.read(other, Access.COMPUTE_READ),
                            s.write(result, Access.COMPUTE_WRITE)), (h, c) -> accumulate.dispatch(c.cmd(),
                            List.of(DescriptorSets.Range.of(c.buffer(h.prev()), 0, 4), DescriptorSets.Range.of(c.buffer(h.in()), 128, 4),
                                    DescriptorSets.Range.of(c.buffer(h.out()), 0, 4)), null, 1, 1));
                    if (submit == Submit.FRAME_CMD) {
                        var cmd = commands.begin(frame);
                        frame.record(cmd);
                        commands.end(cmd);
                        frame.submit(cmd);
                        maxBatches = Math.max(maxBatches, 1);
                    } else {
                        List<FrameBatch> batches = frame.recordBatches(lanes);
                        maxBatches = Math.max(maxBatches, batches.size());
                        frame.submit(batches);
                    }
                    ctx.waitIdle();
                    out.invalidate(0, 4);
                    results.add(MemoryUtil.memGetFloat(out.mappedAddress()));
                }
                assertEquals(0, ctx.validationLog().total(), () -> "validation: " + ctx.validationLog().messages());
            }
            return new Run(history, results, maxBatches);
        }
    }

    private static List<Float> expected() {
        List<Float> out = new ArrayList<>();
        float running = 0;
        for (int f = 0; f < FRAMES; f++) {
            float a = f % 5;
            running += a + 1 * 1;             // values[16] = a + (16 % 3) * b
            out.add(running + (10 * a + 2 * 2)); // other[32] = 10a + (32 % 3) * 2
        }
        return out;
    }

    @Test
    void asyncOnWithOneQueueGivesOneBatchAndTheSameResultsAsOff() {
        Run off = run("off", false, null, false, Submit.FRAME_CMD);
        assertEquals(expected(), off.results(), "async off computes the right values");
        Run on = run("on", false, null, false, Submit.BATCHES);
        assertEquals(1, on.maxBatches(), "one queue: one batch per frame");
        assertEquals(off.results(), on.results(), "async on, one queue: identical results");
    }

    @Test
    void lanesSplitOnTheOneQueueGiveTheSameResults() {
        Run split = run("on", true, null, true, Submit.BATCHES);
        assertTrue(split.maxBatches() >= 3, "split lanes: main | async | main batches, got " + split.maxBatches());
        assertEquals(expected(), split.results());
    }

    @Test
    void randomLegalOrdersWithPoisonedTransientsGiveTheSameResults() {
        for (long seed = 1; seed <= 3; seed++) {
            Run r = run("on", true, seed, true, Submit.BATCHES);
            assertEquals(expected(), r.results(), "pass order seed " + seed);
        }
    }
}

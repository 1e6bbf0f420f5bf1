package dev.tally;

import dev.tally.internal.engine.EngineFrame;

import dev.tally.internal.engine.Engine;

import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.vk.VulkanException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lwjgl.system.MemoryStack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Frame numbers and timeline values only grow: past an abandoned frame (whose value is signalled by an
 * empty submission), past a lost device (injected) and with frames submitted in batches on split lanes.
 * debug.injectFault reaches the batch submissions too. Validation is on.
 */
class FrameTimelineTest {
    private static final int COUNT = 256;

    @TempDir
    static Path cache;

    private static Tally open(String... settings) {
        List<String> cfg = new ArrayList<>(List.of("validation.enabled=true", "cache.dir=" + cache));
        cfg.addAll(List.of(settings));
        return Tally.open(Config.load(null, cfg), List.of());
    }

    /** Strictly increasing numbers and timeline values, and each ticket's slot is its number modulo the frames in flight. */
    private static final class Monotonic {
        private long number = -1;
        private long value;

        void check(Tally tally, Frame frame) {
            assertTrue(frame.number() > number, "frame number " + frame.number() + " after " + number);
            assertTrue(frame.timelineValue() > value, "timeline value " + frame.timelineValue() + " after " + value);
            assertEquals(frame.number() % tally.framesInFlight(), EngineFrame.of(frame).ticket().slot(), "slot of frame " + frame.number());
            assertEquals(frame.number(), EngineFrame.of(frame).ticket().number());
            assertEquals(frame.timelineValue(), EngineFrame.of(frame).ticket().timelineValue());
            number = frame.number();
            value = frame.timelineValue();
        }
    }

    /** A fill of an imported buffer (one transfer pass), recorded and submitted by Tally with one command buffer. */
    private static void fillFrame(Frame frame, FrameCommands commands, TrackedBuffer target, int word) {
        FrameGraph g = frame.graph();
        BufferHandle out = g.importBuffer("target", target, Access.HOST_READ);
        g.addPass("fill", PassKind.TRANSFER, s -> s.write(out, Access.TRANSFER_DST),
                (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, target.size(), word));
        var cmd = commands.begin(frame);
        frame.record(cmd);
        commands.end(cmd);
        frame.submit(cmd);
    }

    @Test
    void anAbandonedFrameKeepsItsNumberAndSignalsItsValue() {
        try (Tally tally = open();
             FrameCommands commands = tally.frameCommands();
             TrackedBuffer target = new TrackedBuffer(Engine.of(tally).context(), "target", 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            VulkanContext ctx = Engine.of(tally).context();
            Monotonic m = new Monotonic();
            for (int f = 0; f < 9; f++) {
                Frame frame = tally.beginFrame();
                m.check(tally, frame);
                if (f % 3 == 1) {
                    frame.abandon();
                    ctx.waitIdle();
                    assertTrue(ctx.completedValue() >= frame.timelineValue(),
                            "abandoned frame " + frame.number() + ": the timeline reached " + ctx.completedValue() + ", not its value "
                                    + frame.timelineValue());
                } else {
                    fillFrame(frame, commands, target, f);
                }
            }
            ctx.waitIdle();
            assertEquals(ctx.lastSubmitted(), ctx.completedValue());
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @Test
    void aLostDeviceLeavesTheFailedValueUsedAndTheNextFramesGoOn() {
        try (Tally tally = open("debug.injectFault=device-lost@3");
             FrameCommands commands = tally.frameCommands();
             TrackedBuffer target = new TrackedBuffer(Engine.of(tally).context(), "target", 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            VulkanContext ctx = Engine.of(tally).context();
            Monotonic m = new Monotonic();
            for (int f = 0; f < 2; f++) {
                Frame frame = tally.beginFrame();
                m.check(tally, frame);
                fillFrame(frame, commands, target, f);
            }
            assertEquals(2, ctx.lastSubmitted());
            // Tally's own submission takes value 3 and is lost there.
            VulkanException e = assertThrows(VulkanException.class,
                    () -> ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, target.handle(), 0, 64, 9)));
            assertTrue(e.isDeviceLost(), e::getMessage);
            assertTrue(e.getMessage().contains("submission 3"), e.getMessage());
            for (int f = 0; f < 3; f++) {
                Frame frame = tally.beginFrame();   // beginning and abandoning still work on a lost device
                m.check(tally, frame);
                assertTrue(frame.timelineValue() > 3, "the failed submission's value 3 is not handed out again: " + frame.timelineValue());
                frame.abandon();
            }
            assertEquals(4, m.number, "frames 0 and 1 submitted, 2..4 abandoned");
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    /** Three passes, the middle one asking for the async queue: with the lanes split on one queue, main | async | main batches. */
    private record Kernels(ComputeKernel fill, ComputeKernel accumulate) implements AutoCloseable {
        static Kernels of(Tally tally) {
            VulkanContext ctx = Engine.of(tally).context();
            ComputeKernel fill = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_fill.comp", Map.of(), null, 1, 12);
            return new Kernels(fill, new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_accumulate.comp", Map.of(), null, 3, 0));
        }

        @Override
        public void close() {
            fill.close();
            accumulate.close();
        }
    }

    private static List<FrameBatch> declareSplitFrame(Frame frame, LaneCommands lanes, Kernels k, TrackedBuffer target) {
        FrameGraph g = frame.graph();
        BufferHandle values = g.addPass("fill", PassKind.COMPUTE, s -> s.write(s.create("values", BufferDesc.of(4L * COUNT)),
                Access.COMPUTE_WRITE), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                k.fill().dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 4L * COUNT)),
                        stack.malloc(12).putInt(0, COUNT).putFloat(4, 1).putFloat(8, 1), 1, 1);
            }
        });
        BufferHandle sum = g.addPass("accumulate", PassKind.COMPUTE, s -> {
            s.asyncCompute();
            s.read(values, Access.COMPUTE_READ);
            return s.write(s.create("sum", BufferDesc.of(16)), Access.COMPUTE_WRITE);
        }, (h, c) -> k.accumulate().dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(values), 0, 4),
                DescriptorSets.Range.of(c.buffer(values), 64, 4), DescriptorSets.Range.of(c.buffer(h), 0, 4)), null, 1, 1));
        BufferHandle out = g.importBuffer("target", target, Access.HOST_READ);
        g.addPass("combine", PassKind.COMPUTE, s -> {
            s.read(sum, Access.COMPUTE_READ);
            return s.write(out, Access.COMPUTE_WRITE);
        }, (h, c) -> k.accumulate().dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(sum), 0, 4),
                DescriptorSets.Range.of(c.buffer(sum), 0, 4), DescriptorSets.Range.of(c.buffer(h), 0, 4)), null, 1, 1));
        return frame.recordBatches(lanes);
    }

    @Test
    void framesInBatchesOnSplitLanesKeepNumbersAndValuesGrowing() {
        try (Tally tally = open("async.mode=on", "debug.asyncOneQueue=true");
             LaneCommands lanes = tally.laneCommands();
             Kernels k = Kernels.of(tally);
             TrackedBuffer target = new TrackedBuffer(Engine.of(tally).context(), "target", 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK)) {
            VulkanContext ctx = Engine.of(tally).context();
            Monotonic m = new Monotonic();
            long lastValue = 0;
            for (int f = 0; f < 10; f++) {
                Frame frame = tally.beginFrame();
                m.check(tally, frame);
                lastValue = frame.timelineValue();
                if (f % 4 == 2) {
                    frame.abandon();
                    continue;
                }
                List<FrameBatch> batches = declareSplitFrame(frame, lanes, k, target);
                assertTrue(batches.size() >= 3, "split lanes: main | async | main, got " + batches.size() + " batch(es)");
                frame.submit(batches);
            }
            ctx.waitIdle();
            assertEquals(lastValue, ctx.completedValue(), "every frame's value signalled, the abandoned ones' too");
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @ParameterizedTest(name = "async.mode={0}")
    @ValueSource(strings = {"on", "auto"})
    void anInjectedDeviceLossReachesABatchSubmission(String asyncMode) {
        try (Tally tally = open("async.mode=" + asyncMode, "debug.asyncOneQueue=true", "debug.injectFault=device-lost@3");
             LaneCommands lanes = tally.laneCommands();
             Kernels k = Kernels.of(tally);
             TrackedBuffer target = new TrackedBuffer(Engine.of(tally).context(), "target", 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK)) {
            VulkanContext ctx = Engine.of(tally).context();
            for (int f = 0; f < 2; f++) {
                Frame frame = tally.beginFrame();
                frame.submit(declareSplitFrame(frame, lanes, k, target));
            }
            assertFalse(ctx.isDeviceLost());
            Frame third = tally.beginFrame();
            assertEquals(3, third.timelineValue());
            List<FrameBatch> batches = declareSplitFrame(third, lanes, k, target);
            VulkanException e = assertThrows(VulkanException.class, () -> third.submit(batches));
            assertTrue(e.isDeviceLost(), e::getMessage);
            assertTrue(e.getMessage().startsWith("device lost at submission 3 (frame 2, batch 0 on lane "), e.getMessage());
            assertTrue(e.getMessage().contains("injected by debug.injectFault=device-lost@3"), e.getMessage());
            assertTrue(ctx.isDeviceLost());
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }
}

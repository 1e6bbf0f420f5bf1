package dev.tally.internal.graph;

import dev.tally.graph.BufferHandle;

import dev.tally.internal.engine.Engine;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * graph.passTimingInterval = 4: every fourth frame times each pass, the others only the frame's GPU span
 * (two timestamps). Each frame is waited for here, so every frame is timed and the counts are exact.
 */
class PassTimingIntervalTest extends GpuTestBase {
    private static final int FRAMES = 40;

    @Override
    protected List<String> configOverrides() {
        return List.of("graph.passTimingInterval=4");
    }

    @Test
    void everyFourthFrameTimesEachPassAndEveryFrameItsSpan() {
        GraphRuntime graphs = Engine.of(runtime).graphs();
        long spansBefore = graphs.stats().samples(GraphRuntime.FRAME_SPAN);
        try (FrameCommands commands = runtime.frameCommands();
             TrackedBuffer buffer = new TrackedBuffer(Engine.of(runtime).context(), "test.timed", 1 << 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            for (int f = 0; f < FRAMES; f++) {
                Frame frame = runtime.beginFrame();
                var cmd = commands.begin(frame);
                GraphDeclaration g = GraphDeclaration.of(frame.graph());
                BufferHandle out = g.importBuffer("timed", buffer, null);
                BufferHandle first = g.addPass("first", PassKind.TRANSFER, b -> b.write(out, Access.TRANSFER_DST),
                        (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, 1));
                g.addPass("second", PassKind.TRANSFER, b -> b.write(first, Access.TRANSFER_DST),
                        (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, 2));
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
                Engine.of(runtime).context().waitIdle();
                graphs.collectTimings();
            }
        }
        assertEquals(FRAMES, graphs.stats().samples(GraphRuntime.FRAME_SPAN) - spansBefore, "every frame's span");
        assertEquals(FRAMES / 4, graphs.stats().samples("first"), "each pass timed every fourth frame");
        assertEquals(FRAMES / 4, graphs.stats().samples("second"));
        assertTrue(graphs.stats().medianMicros(GraphRuntime.FRAME_SPAN) > 0);
    }
}

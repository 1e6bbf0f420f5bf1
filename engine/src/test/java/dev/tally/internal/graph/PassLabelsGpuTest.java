package dev.tally.internal.graph;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.*;

/** On lavapipe with validation (VK_EXT_debug_utils on): each pass is recorded under a label kept for its name, one per name. */
class PassLabelsGpuTest extends GpuTestBase {
    @Test
    void framesLabelTheirPassesWithOneKeptLabelPerName() {
        GraphRuntime graphs = Engine.of(runtime).graphs();
        assertTrue(Engine.of(runtime).context().names().enabled(), "VK_EXT_debug_utils is on in the tests: passes are labelled");
        VulkanBackend backend = (VulkanBackend) graphs.backend();
        int before = backend.labelsKept();
        try (FrameCommands commands = runtime.frameCommands();
             TrackedBuffer buffer = new TrackedBuffer(Engine.of(runtime).context(), "test.labelled", 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            for (int f = 0; f < 5; f++) {
                Frame frame = runtime.beginFrame();
                var cmd = commands.begin(frame);
                GraphDeclaration g = GraphDeclaration.of(frame.graph());
                BufferHandle out = g.importBuffer("labelled", buffer, null);
                // Names made anew each frame, equal to the last frame's: the same kept label.
                BufferHandle first = g.addPass(new String("labelled.first"), PassKind.TRANSFER, b -> b.write(out, Access.TRANSFER_DST),
                        (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, 1));
                g.addPass(new String("labelled.second"), PassKind.TRANSFER, b -> b.write(first, Access.TRANSFER_DST),
                        (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, 2));
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
                Engine.of(runtime).context().waitIdle();
            }
        }
        assertEquals(2, backend.labelsKept() - before, "one kept label per pass name");
    }
}

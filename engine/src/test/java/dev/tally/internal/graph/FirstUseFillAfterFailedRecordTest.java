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
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A first-use fill (a node's zeroed ticket, a history's initial value) is recorded at the start of the next frame; when
 * that frame's recording throws and the frame is abandoned, the fill is recorded again by the next frame, not lost with
 * the discarded command buffer.
 */
class FirstUseFillAfterFailedRecordTest extends GpuTestBase {
    @Test
    void aFillOfAFrameWhoseRecordThrewIsRecordedByTheNextFrame() {
        var ctx = Engine.of(runtime).context();
        GraphRuntime graphs = Engine.of(runtime).graphs();
        try (FrameCommands commands = runtime.frameCommands();
             TrackedBuffer filled = new TrackedBuffer(ctx, "test.first-use", 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                     MemoryKind.DEVICE);
             TrackedBuffer host = new TrackedBuffer(ctx, "test.first-use.host", 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            graphs.fillOnFirstUse(filled, 0x12345678);
            for (int f = 0; f < 2; f++) {
                Frame frame = runtime.beginFrame();
                VkCommandBuffer cmd = commands.begin(frame);
                BufferHandle h = frame.graph().importBuffer("first-use", filled, null);
                BufferHandle out = frame.graph().importBuffer("host", host, Access.HOST_READ);
                boolean fail = f == 0;
                frame.graph().addPass("copy", PassKind.TRANSFER, b -> {
                    b.read(h, Access.TRANSFER_SRC);
                    return b.write(out, Access.TRANSFER_DST);
                }, (o, c) -> {
                    if (fail) {
                        throw new IllegalStateException("the pass failed");
                    }
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        vkCmdCopyBuffer(c.cmd(), c.buffer(h).handle(), c.buffer(o).handle(), VkBufferCopy.calloc(1, stack).size(16));
                    }
                });
                if (fail) {
                    assertThrows(IllegalStateException.class, () -> frame.record(cmd));
                    commands.end(cmd);   // ended, never submitted: the next begin of this slot resets it
                    frame.abandon();
                    continue;
                }
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            host.invalidate(0, 16);
            for (int i = 0; i < 4; i++) {
                assertEquals(0x12345678, org.lwjgl.system.MemoryUtil.memGetInt(host.mappedAddress() + 4L * i), "word " + i + " of the fill");
            }
        }
    }
}

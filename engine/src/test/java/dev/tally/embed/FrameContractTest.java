package dev.tally.embed;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.GraphException;
import dev.tally.graph.PassKind;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkSemaphoreCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreSignalInfo;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkSemaphoreTypeCreateInfo;

import java.nio.LongBuffer;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.*;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;

/**
 * The frame's contract with its host: everything is declared before {@code record}, and the host keeps no
 * more than {@code frames.inFlight} frames unfinished when it begins one (checked by a poll, never a wait).
 */
class FrameContractTest {
    /** Pass "fill": {@code data} (16 bytes) filled with {@code value}, or a callback that throws when {@code fail}. */
    private static dev.tally.graph.BufferHandle fill(Frame frame, TrackedBuffer data, float value, boolean fail) {
        var handle = frame.graph().importBuffer("data", data, null);
        return frame.graph().addPass("fill", PassKind.TRANSFER, b -> b.write(handle, Access.TRANSFER_DST), (h, c) -> {
            if (fail) {
                throw new IllegalStateException("the host's pass failed");
            }
            vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, 16, Float.floatToRawIntBits(value));
        });
    }

    @Test
    void aCaptureOrPassDeclaredAfterRecordIsAnErrorNamingTheFrameAndTheRingStillDelivers() {
        Config config = Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config, host.host());
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                     MemoryKind.DEVICE);
             ReadbackRing ring = tally.readback("counter", 16)) {
            Sample last = null;
            for (long f = 0; f < 6; f++) {
                VkCommandBuffer cmd = host.begin(f);
                Frame frame = tally.beginFrame();
                last = ring.latest().orElse(last);
                var written = fill(frame, data, f, false);
                if (f != 1) {
                    ring.capture(frame.graph(), written);
                }
                frame.record(cmd);
                if (f == 1) {
                    GraphException e = assertThrows(GraphException.class, () -> ring.capture(frame.graph(), written));
                    assertEquals("frame 1: readback ring capture 'counter' declared after frame.record(...); declare every pass, import and"
                            + " capture of a frame before recording it", e.getMessage());
                    GraphException p = assertThrows(GraphException.class, () -> frame.graph().addPass("late", PassKind.COMPUTE,
                            b -> b.create("late.out", BufferDesc.of(16)), (h, c) -> {
                            }));
                    assertTrue(p.getMessage().startsWith("frame 1: pass 'late' declared after frame.record(...)"), p.getMessage());
                }
                host.submit(f, cmd, frame::signal);
            }
            assertNotNull(last);
            assertEquals(2, last.frame(), "frame 2's capture arrived three frames late: the refused capture changed nothing");
            assertEquals(2f, last.floatAt(0));
            assertEquals(0, ring.stats().rejected(), "nothing captured into a recorded frame, so nothing rejected");
            host.idle();
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void aHostRunningFurtherAheadThanFramesInFlightIsToldAtBeginFrameWithoutAWait() {
        Config config = Config.load(null, List.of("frames.inFlight=1", "readback.slots=2"));
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config, host.host()); MemoryStack stack = stackPush()) {
            // A gate the host opens only at the end: frame 0 cannot finish before, whatever the driver's speed.
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSemaphore(host.device.device(), VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(
                    VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default().semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE)), null, p), "vkCreateSemaphore");
            long gate = p.get(0);
            try {
                for (long f = 0; f < 2; f++) {   // two fences, one frame promised: the host never waits for frame 0
                    VkCommandBuffer cmd = host.begin(f);
                    Frame frame = tally.beginFrame();
                    frame.record(cmd);
                    boolean gated = f == 0;
                    host.submit(f, cmd, (submit, s) -> {
                        if (gated) {
                            submit.pWaitSemaphoreInfos(VkSemaphoreSubmitInfo.calloc(1, s).sType$Default().semaphore(gate).value(1)
                                    .stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT));
                        }
                        frame.signal(submit, s);
                    });
                }
                long waits = Engine.of(tally).waits().total().count();
                IllegalStateException e = assertThrows(IllegalStateException.class, tally::beginFrame);
                assertTrue(e.getMessage().startsWith("frame 2 begun while frame 0 (timeline value 1) has not finished on the GPU:"
                        + " the host runs more than frames.inFlight = 1 frames ahead"), e.getMessage());
                assertFalse(e.getMessage().contains("\n"), "one line");
                assertEquals(waits, Engine.of(tally).waits().total().count(), "found by a poll, not a wait");
            } finally {
                check(vkSignalSemaphore(host.device.device(), VkSemaphoreSignalInfo.calloc(stack).sType$Default().semaphore(gate).value(1)),
                        "vkSignalSemaphore");
                host.idle();
                vkDestroySemaphore(host.device.device(), gate, null);
            }
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void aFrameWhoseRecordThrewIsAbandonedAndTheNextFramesRunClean() {
        Config config = Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config, host.host());
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                     MemoryKind.DEVICE);
             ReadbackRing ring = tally.readback("counter", 16)) {
            Sample last = null;
            for (long f = 0; f < 8; f++) {
                VkCommandBuffer cmd = host.begin(f);
                Frame frame = tally.beginFrame();
                last = ring.latest().orElse(last);
                boolean fail = f == 2;
                var written = fill(frame, data, f, fail);
                ring.capture(frame.graph(), written);
                if (fail) {
                    assertEquals("the host's pass failed", assertThrows(IllegalStateException.class, () -> frame.record(cmd)).getMessage());
                    IllegalStateException signal = assertThrows(IllegalStateException.class, () -> frame.signal((org.lwjgl.vulkan.VkSubmitInfo2) null, null));
                    assertTrue(signal.getMessage().endsWith("; record it first, or abandon it if record threw"), signal.getMessage());
                    frame.abandon();
                    host.discard(f);
                    continue;
                }
                frame.record(cmd);
                host.submit(f, cmd, frame::signal);
            }
            host.idle();
            assertNotNull(last, "samples arrived after the failed frame");
            assertTrue(last.frame() > 2, "a frame after the failed one was delivered: " + last.frame());
            assertEquals((float) last.frame(), last.floatAt(0), "the sample is its own frame's value");
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void anAbandonedFrameTakesNoPlaceAmongTheFramesInFlight() {
        Config config = Config.load(null, List.of("frames.inFlight=1", "readback.slots=2"));
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config, host.host()); MemoryStack stack = stackPush()) {
            // Frame 0 cannot finish before the host opens the gate at the end.
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSemaphore(host.device.device(), VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(
                    VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default().semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE)), null, p), "vkCreateSemaphore");
            long gate = p.get(0);
            try {
                VkCommandBuffer first = host.begin(0);
                Frame frame0 = tally.beginFrame();
                frame0.record(first);
                host.submit(0, first, (submit, s) -> {
                    submit.pWaitSemaphoreInfos(VkSemaphoreSubmitInfo.calloc(1, s).sType$Default().semaphore(gate).value(1)
                            .stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT));
                    frame0.signal(submit, s);
                });
                tally.beginFrame().abandon();   // frame 1: no work, its number is not reused
                // Frame 2: only frame 0 is unfinished, one frame as promised; the abandoned frame 1 is not counted.
                VkCommandBuffer second = host.begin(1);
                Frame frame2 = assertDoesNotThrow(tally::beginFrame, "one unfinished frame with frames.inFlight = 1");
                assertEquals(2, frame2.number());
                frame2.record(second);
                host.submit(1, second, frame2::signal);
                IllegalStateException e = assertThrows(IllegalStateException.class, tally::beginFrame);
                assertTrue(e.getMessage().startsWith("frame 3 begun while frame 0 (timeline value 1) has not finished on the GPU:"
                        + " the host runs more than frames.inFlight = 1 frames ahead"), e.getMessage());
            } finally {
                check(vkSignalSemaphore(host.device.device(), VkSemaphoreSignalInfo.calloc(stack).sType$Default().semaphore(gate).value(1)),
                        "vkSignalSemaphore");
                host.idle();
                vkDestroySemaphore(host.device.device(), gate, null);
            }
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }
}

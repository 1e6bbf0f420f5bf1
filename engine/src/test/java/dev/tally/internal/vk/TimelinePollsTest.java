package dev.tally.internal.vk;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.engine.Engine;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

/**
 * The timeline's value is asked of the driver (vkGetSemaphoreCounterValue) once a frame where nothing makes the seen
 * value short: a frame's begin polls once, and its other checks (the frames-in-flight contract, the timing and readback
 * query slots, the command pool's pacing, deferred destruction) are of values frames old, answered by what that poll saw.
 * Each check polling on its own made seven a frame. Lavapipe, validation on.
 */
class TimelinePollsTest {
    @Test
    void aValueSeenReachedIsAnsweredWithoutAPoll() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of())) {
            Submissions s = Engine.of(tally).context().submissions();
            runFrames(tally, 8);
            tally.device().waitIdle();
            long completed = s.completedValue();
            assertTrue(completed >= 8, "after 8 frames and an idle device the timeline reads " + completed);
            long before = s.polls();
            assertTrue(s.reached(completed));
            assertTrue(s.reached(1));
            assertEquals(before, s.polls(), "values at or under the last poll's are answered without asking the driver");
            assertFalse(s.reached(completed + 1000), "a value past every submission is not reached");
            assertEquals(before + 1, s.polls(), "a value past the seen one is asked of the driver, once");
            assertEquals(completed, s.seenCompleted());
        }
    }

    @Test
    void aSteadyFrameWithTimingsAndAReadbackPollsOnceOrTwice() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of())) {
            Submissions s = Engine.of(tally).context().submissions();
            runFrames(tally, 16);   // first-use work, the ring's slots filled
            long before = s.polls();
            int frames = 48;
            Sample last = runFrames(tally, frames);
            double perFrame = (double) (s.polls() - before) / frames;
            assertNotNull(last, "the ring handed out samples");
            assertTrue(perFrame >= 1, "each frame's begin polls: " + perFrame + " polls a frame");
            assertTrue(perFrame <= 2, "polls a frame: " + perFrame + " (each check asking the driver on its own made 5 here, 7 with the begin's three)");
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }

    /** {@code frames} frames capturing a buffer into a readback ring, in Tally's own command buffers; the last sample, or null. */
    private static Sample runFrames(Tally tally, int frames) {
        try (GpuBuffer values = tally.createBuffer("values", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             ReadbackRing ring = tally.readback("ring", 16);
             FrameCommands commands = tally.frameCommands()) {
            for (int f = 0; f < frames; f++) {
                Frame frame = tally.beginFrame();
                FrameGraph g = frame.graph();
                BufferHandle buffer = g.importBuffer("values", values, null);
                ring.capture(g, List.of(new ReadbackRing.Region(buffer, 0, 4)));
                VkCommandBuffer cmd = commands.begin(frame);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            return ring.latest().orElse(null);
        }
    }
}

package dev.tally.internal.readback;

import dev.tally.GpuTestBase;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.QueryResets;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A ring slot's completion timestamp is reset from the host only once the frame that last wrote it has completed; a slot
 * that comes round earlier (abandoned frames advance the frame number, and a host that paces with its own fences may
 * start the next frame before that one finished) gets a reset command, which the queue orders after that frame.
 */
class CompletionTimesResetTest extends GpuTestBase {
    @Test
    void aQueryWhoseLastWriterMayStillRunIsResetByACommand() {
        VulkanContext ctx = Engine.of(runtime).context();
        if (!ctx.hostQueryReset()) {
            System.err.println("CompletionTimesResetTest: SKIPPED LOUDLY: this device has no hostQueryReset; every reset is a command");
            return;
        }
        try (CompletionTimes times = new CompletionTimes(ctx, 1);
             TrackedBuffer buffer = ReadbackSlot.newBuffer(ctx, "test.slot", 64)) {
            if (times.source() != dev.tally.readback.TimeSource.CALIBRATED) {
                System.err.println("CompletionTimesResetTest: SKIPPED LOUDLY: no calibrated timestamps here, so the ring keeps no queries");
                return;
            }
            ReadbackSlot slot = new ReadbackSlot(buffer, 0, "test.slot");
            QueryResets resets = ctx.queryResets();
            long host = resets.host(), commands = resets.commands();
            ctx.submitAndWait(cmd -> times.reset(cmd, slot));   // never written: nothing can still use it
            assertEquals(host + 1, resets.host(), "a query no frame wrote is reset from the host");

            // Written by a frame whose timeline value the GPU has not reached (as a frame still running would be).
            slot.timelineValue = ctx.completedValue() + 1_000_000;
            slot.frame = 7;
            ctx.submitAndWait(cmd -> times.write(cmd, slot));
            ctx.submitAndWait(cmd -> times.reset(cmd, slot));
            assertEquals(commands + 1, resets.commands(), "its writer may still run: the reset is a command");
            assertEquals(host + 1, resets.host());

            // Written by a frame that has completed.
            slot.timelineValue = ctx.completedValue();
            ctx.submitAndWait(cmd -> times.write(cmd, slot));
            ctx.submitAndWait(cmd -> times.reset(cmd, slot));
            assertEquals(host + 2, resets.host(), "its writer completed: the reset is the host's");
            assertEquals(commands + 1, resets.commands());
        }
        ctx.waitIdle();
        assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
    }
}

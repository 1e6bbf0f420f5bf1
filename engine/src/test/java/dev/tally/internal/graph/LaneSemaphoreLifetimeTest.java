package dev.tally.internal.graph;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.ValidationLog;
import dev.tally.internal.vk.VulkanContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The lanes' timeline semaphore, which their batches wait on, is destroyed once the device is idle at close and not when
 * the timeline says the GPU is done: lavapipe's queue code releases a batch's waits on it after the batch's signal is
 * visible, and a semaphore destroyed in between was written after its free (the engine suite's native heap corruption,
 * "corrupted double-linked list", with split lanes on one queue).
 */
class LaneSemaphoreLifetimeTest {
    @Test
    void theLanesSemaphoreWaitsForTheIdleDeviceAtCloseNotForTheTimeline() {
        ValidationLog log;
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")))) {
            VulkanContext ctx = Engine.of(tally).context();
            log = ctx.validationLog();
            VulkanBackend backend = new VulkanBackend(ctx, 2);
            try {
                long semaphore = backend.createLaneSemaphore();
                ctx.waitIdle();
                int before = ctx.pendingDestructions();
                backend.destroyLaneSemaphore(semaphore);
                assertEquals(before + 1, ctx.pendingDestructions(), "destroyed at once, though the device may still release waits on it");
                ctx.waitIdle();   // the timeline reached: still kept
                assertEquals(before + 1, ctx.pendingDestructions(), "destroyed by the timeline, before the device was idle at close");
            } finally {
                backend.close();
            }
        }
        // Tally.close destroyed it, after vkDeviceWaitIdle: the validation layer reports a semaphore left to the device's end.
        assertEquals(0, log.total(), () -> log.messages().toString());
    }
}

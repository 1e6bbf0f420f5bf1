package dev.tally.internal.vk;

import dev.tally.internal.engine.Engine;

import dev.tally.vk.VulkanException;

import dev.tally.vk.MemoryKind;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import dev.tally.internal.reduce.DeviceArray;
import dev.tally.internal.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The fault-injection test hook (debug.injectFault) and what the context does with a lost device or a
 * failed allocation: one error where it happens, then quiet waits and a clean close. Validation is on.
 */
class FaultInjectionTest {
    @TempDir
    static Path cache;

    private static Tally open(String fault) {
        return Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache,
                "debug.injectFault=" + fault)), List.of());
    }

    private static Consumer<org.lwjgl.vulkan.VkCommandBuffer> fill(TrackedBuffer b, int word) {
        return cmd -> vkCmdFillBuffer(cmd, b.handle(), 0, b.size(), word);
    }

    // ---- the plan ------------------------------------------------------------------------------------

    @Test
    void planParsesEverySpellingAndRejectsTheRest() {
        assertEquals(FaultPlan.NONE, FaultPlan.parse("none"));
        assertEquals(FaultPlan.NONE, FaultPlan.parse("  none "));
        assertEquals(new FaultPlan(FaultPlan.Kind.DEVICE_LOST, 50), FaultPlan.parse("device-lost@50"));
        assertEquals(new FaultPlan(FaultPlan.Kind.OOM, 1), FaultPlan.parse("oom@1"));
        assertEquals("device-lost@7", FaultPlan.parse("device-lost@7").spec());
        for (String bad : new String[]{"", "None", "device-lost", "device-lost@", "device-lost@0", "oom@-1", "oom@1.5",
                "oom@ 3", "oom@\u0661", "oom@9999999999999999999", "lost@3", "oom@3x", "device_lost@3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse(bad), bad);
            assertTrue(e.getMessage().contains("device-lost@N"), e.getMessage());
        }
    }

    @Test
    void aBadConfigValueIsAConfigErrorNamingTheKeyAndTheSpellings() {
        ConfigException e = assertThrows(ConfigException.class, () -> open("device-lost@0"));
        assertTrue(e.getMessage().contains("debug.injectFault"), e.getMessage());
        assertTrue(e.getMessage().contains("none, device-lost@N, oom@N, out-of-date@N or suboptimal@N"), e.getMessage());
    }

    @Test
    void defaultOptionsInjectNothing() {
        assertEquals("none", ContextOptions.headless().faults());
        assertEquals("none", Config.defaults().string("debug.injectFault"), "the packaged config/tally.conf injects nothing");
    }

    // ---- device lost ---------------------------------------------------------------------------------

    @Test
    void deviceLostAtTheChosenSubmissionThenQuietWaitsAndACleanClose() {
        ValidationLog log;
        try (VulkanContext ctx = VulkanContext.create(ContextOptions.headless().withValidation(true)
                .withFaults("device-lost@3"))) {
            log = ctx.validationLog();
            TrackedBuffer b = new TrackedBuffer(ctx, "target", 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
            ctx.submitAndWait(fill(b, 1));
            ctx.submitAndWait(fill(b, 2));
            assertEquals(2, ctx.lastSubmitted());
            assertFalse(ctx.isDeviceLost());

            VulkanException e = assertThrows(VulkanException.class, () -> ctx.submitAndWait(fill(b, 3)));
            assertTrue(e.isDeviceLost(), e::getMessage);
            assertEquals(VK_ERROR_DEVICE_LOST, e.result());
            assertTrue(e.getMessage().startsWith("device lost at submission 3 (vkQueueSubmit2, injected by debug.injectFault=device-lost@3)"),
                    e.getMessage());
            assertTrue(ctx.isDeviceLost());
            assertTrue(ctx.faults().lossInjected());
            assertEquals(2, ctx.lastSubmitted(), "the failed submission signals nothing");

            // Nothing more reaches the queue; the message says where the device was lost.
            VulkanException again = assertThrows(VulkanException.class, () -> ctx.submitAndWait(fill(b, 4)));
            assertTrue(again.isDeviceLost());
            assertTrue(again.getMessage().contains("lost at submission 3"), again.getMessage());

            // Waits return at once and everything counts as complete, so closing can release it.
            long t0 = System.nanoTime();
            assertDoesNotThrow(ctx::waitIdle);
            assertDoesNotThrow(() -> ctx.waitFor(1_000));
            assertEquals(ctx.lastSubmitted(), ctx.completedValue());
            assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "waits after a loss must not block");
            b.close();
            assertEquals(0, ctx.pendingDestructions());
        } // close(): vkDeviceWaitIdle reports VK_ERROR_DEVICE_LOST (as on a really lost device) and is tolerated
        assertEquals(0, log.total(), () -> "no validation messages, no leaks: " + log.messages());
    }

    @Test
    void aRuntimeClosesCleanlyAfterTheDeviceIsLost() {
        Tally rt = open("device-lost@1");
        ValidationLog log = Engine.of(rt).context().validationLog();
        try (DeviceArray array = DeviceArray.of(Engine.of(rt).context(), "input", new float[]{1, 2, 3});
             OneShotReduction one = new OneShotReduction(Engine.of(rt).context(), Engine.of(rt).reducer())) {
            VulkanException e = assertThrows(VulkanException.class, () -> one.reduce(ReduceOp.SUM, array));
            assertTrue(e.isDeviceLost(), e::getMessage);
        }
        assertDoesNotThrow(rt::close);
        assertDoesNotThrow(rt::close, "closing twice is harmless");
        assertEquals(0, log.total(), () -> "no validation messages, no leaks: " + log.messages());
    }

    // ---- out of memory -------------------------------------------------------------------------------

    @Test
    void outOfMemoryAtTheChosenBufferNamesSizeAndBudgetAndTheRuntimeStaysUsable() {
        try (Tally rt = open("oom@20")) {
            VulkanContext ctx = Engine.of(rt).context();
            long made = ctx.faults().bufferCreations();
            assertTrue(made < 19, "opening the runtime made " + made + " buffers");
            List<TrackedBuffer> fillers = new ArrayList<>();
            for (long i = made; i < 19; i++) {
                fillers.add(new TrackedBuffer(ctx, "filler" + i, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE));
            }
            VulkanException e = assertThrows(VulkanException.class,
                    () -> new TrackedBuffer(ctx, "victim", 3L << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE));
            assertTrue(e.isOutOfMemory(), e::getMessage);
            assertEquals(VK_ERROR_OUT_OF_DEVICE_MEMORY, e.result());
            for (String f : new String[]{"'victim'", "3145728 bytes", "budget", "MiB used of", "VK_ERROR_OUT_OF_DEVICE_MEMORY"}) {
                assertTrue(e.getMessage().contains(f), () -> "expected \"" + f + "\" in: " + e.getMessage());
            }
            fillers.forEach(TrackedBuffer::close);

            // The failure was one allocation: the same runtime still allocates and reduces.
            try (DeviceArray array = DeviceArray.of(ctx, "after", new float[]{1, 2, 3, 4});
                 OneShotReduction one = new OneShotReduction(ctx, Engine.of(rt).reducer())) {
                assertEquals(10f, one.reduce(ReduceOp.SUM, array).value());
                assertEquals(4f, one.reduce(ReduceOp.MAX, array).value());
            }
            ctx.waitIdle();
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @Test
    void deviceMemoryBudgetIsPlausible() {
        try (VulkanContext ctx = VulkanContext.create(ContextOptions.headless())) {
            MemoryBudget b = ctx.deviceMemoryBudget();
            assertTrue(b.heapSize() > 0 && b.budget() > 0, b::toString);
            assertTrue(b.budget() <= b.heapSize(), b::toString);
            assertTrue(b.available() <= b.budget(), b::toString);
            assertTrue(b.describe().contains("MiB"), b.describe());
        }
    }

    @Test
    void aWrappedContextRefusesOomInjection() {
        try (VulkanContext renderer = VulkanContext.create(ContextOptions.headless())) {
            assertThrows(IllegalArgumentException.class, () -> VulkanContext.wrap(renderer.options().withFaults("oom@1"),
                    renderer.instance(), renderer.physicalDevice(), renderer.device(), renderer.queueFamily(), renderer.queue(),
                    renderer.allocator(), renderer.debugUtils(), null, renderer.enabledFeatures()));
        }
    }
}

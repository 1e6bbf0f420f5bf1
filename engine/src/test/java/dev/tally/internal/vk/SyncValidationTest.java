package dev.tally.internal.vk;

import dev.tally.vk.MemoryKind;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Proves that the validation layer with synchronization validation is live on this machine: a
 * missing barrier is reported, a correct one is not, and leaks at shutdown are caught. Every test
 * opens and closes its own context so a deliberate hazard cannot leak into another test.
 */
class SyncValidationTest {
    private static final long SIZE = 4096;
    private static final int USAGE = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

    private VulkanContext ctx;

    @BeforeEach
    void open() {
        ctx = VulkanContext.create(ContextOptions.headless().withValidation(true));
        assertTrue(ctx.options().validation());
        assertEquals(0, ctx.validationLog().total(), () -> "a fresh context is clean: " + ctx.validationLog().messages());
    }

    @AfterEach
    void closeIfStillOpen() {
        if (ctx != null) {
            ctx.close();
        }
    }

    private TrackedBuffer storage(String name) {
        return new TrackedBuffer(ctx, name, SIZE, USAGE, MemoryKind.DEVICE);
    }

    private String log() {
        return ctx.validationLog().messages().toString();
    }

    private static void copy(VkCommandBuffer cmd, TrackedBuffer src, TrackedBuffer dst) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            vkCmdCopyBuffer(cmd, src.handle(), dst.handle(), VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(0).size(SIZE));
        }
    }

    /** Transfer writes (fills and copies) before, transfer reads and writes after. */
    private static void transferBarrier(VkCommandBuffer cmd, TrackedBuffer buffer) {
        Barriers.buffer(cmd, buffer.handle(), VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    }

    @Test
    void twoFillsWithoutABarrierAreAWriteAfterWriteHazard() {
        try (TrackedBuffer a = storage("test.a"); TrackedBuffer b = storage("test.b")) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 1);
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 2); // no barrier: WAW on a
            });
        }
        ctx.waitIdle();
        assertTrue(ctx.validationLog().mentions("SYNC-HAZARD"), () -> "expected a SYNC-HAZARD, got: " + log());
        assertTrue(ctx.validationLog().mentions("WRITE-AFTER-WRITE"), () -> "expected write-after-write, got: " + log());
        assertTrue(ctx.validationLog().errors() > 0, this::log);
    }

    @Test
    void fillThenCopyIntoTheSameBufferWithoutABarrierIsAHazard() {
        try (TrackedBuffer a = storage("test.a"); TrackedBuffer b = storage("test.b")) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 1);
                copy(cmd, b, a); // writes a again with no barrier after the fill
            });
        }
        ctx.waitIdle();
        assertTrue(ctx.validationLog().mentions("SYNC-HAZARD-WRITE-AFTER-WRITE"), () -> "got: " + log());
    }

    @Test
    void readingAFreshFillWithoutABarrierIsAReadAfterWriteHazard() {
        try (TrackedBuffer a = storage("test.a"); TrackedBuffer b = storage("test.b")) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 7);
                copy(cmd, a, b); // reads a with no barrier after the fill
            });
        }
        ctx.waitIdle();
        assertTrue(ctx.validationLog().mentions("SYNC-HAZARD-READ-AFTER-WRITE"), () -> "got: " + log());
    }

    @Test
    void theSameWorkWithBarriersIsClean() {
        try (TrackedBuffer a = storage("test.a"); TrackedBuffer b = storage("test.b")) {
            ctx.submitAndWait(cmd -> {
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 1);
                transferBarrier(cmd, a);
                vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 2);
                transferBarrier(cmd, a);
                copy(cmd, a, b);
                transferBarrier(cmd, b);
                vkCmdFillBuffer(cmd, b.handle(), 0, SIZE, 3);
            });
        }
        ctx.waitIdle();
        assertEquals(0, ctx.validationLog().total(), () -> "validation messages: " + log());
        ctx.close();
        assertEquals(0, ctx.validationLog().total(), () -> "validation messages at shutdown: " + log());
    }

    @Test
    void closedBuffersLeaveNoLiveAllocationsAndACleanShutdown() {
        assertEquals(0, ctx.liveAllocations()[0]);
        TrackedBuffer a = storage("test.a");
        TrackedBuffer b = new TrackedBuffer(ctx, "test.readback", 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        long[] live = ctx.liveAllocations();
        assertEquals(2, live[0], "two buffers, two allocations");
        assertTrue(live[1] >= SIZE + 256, () -> "live bytes " + live[1]);

        ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, a.handle(), 0, SIZE, 0));
        a.close();
        b.close();
        a.close(); // closing twice is harmless
        ctx.waitIdle();
        assertEquals(0, ctx.pendingDestructions());
        assertArrayEquals(new long[]{0, 0}, ctx.liveAllocations());

        ValidationLog log = ctx.validationLog();
        ctx.close();
        ctx.close(); // closing twice is harmless
        assertEquals(0, log.total(), () -> "validation messages: " + log.messages());
    }

    @Test
    void aLeakedBufferIsReportedAtClose() {
        TrackedBuffer leaked = storage("test.leaked");
        assertNotEquals(0L, leaked.handle());
        assertEquals(1, ctx.liveAllocations()[0]);
        ValidationLog log = ctx.validationLog();
        assertEquals(0, log.total(), () -> "no messages before close: " + log.messages());
        ctx.close();
        // Never close `leaked` now: its allocator is gone.
        assertTrue(log.errors() > 0, () -> "the leak must be an error: " + log.messages());
        assertTrue(log.mentions("still live"), () -> "got: " + log.messages());
        assertTrue(log.mentions("1 VMA allocation(s)"), () -> "got: " + log.messages());
        assertTrue(log.mentions("still live at Tally.close ('test.leaked')"), () -> "the leaked buffer named: " + log.messages());
        // Tally's line comes first, naming the fix, ahead of the layer's messages about the same objects.
        assertTrue(log.messages().get(0).contains("1 VMA allocation(s)") && log.messages().get(0).contains("before closing Tally"),
                () -> "Tally's line first: " + log.messages());
    }
}

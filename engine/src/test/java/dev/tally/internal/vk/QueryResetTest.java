package dev.tally.internal.vk;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.internal.engine.Engine;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.TimeSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timestamp queries are reset from the host where the device was created with hostQueryReset, by a command in the
 * command buffer where it was not, and either way with validation silent (the host reset only ever touches queries
 * whose earlier use completed).
 */
class QueryResetTest {
    private static final int FRAMES = 40;

    @Test
    void tallysOwnDeviceResetsTheFramesQueriesFromTheHost() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "graph.passTimingInterval=1")))) {
            VulkanContext ctx = Engine.of(tally).context();
            assertTrue(ctx.enabledFeatures().features().contains("hostQueryReset"), "this device offers hostQueryReset and Tally enables it: "
                    + ctx.enabledFeatures().features());
            assertTrue(ctx.hostQueryReset());
            try (ReadbackRing ring = tally.readback("resets", 16)) {
                runFrames(tally, ring);
                QueryResets resets = ctx.queryResets();
                assertEquals(0, resets.commands(), "no reset command recorded");
                // Every frame resets its graph timestamps (two per pass), and the ring its completion timestamp where calibrated.
                long perFrame = 2 + (ring.timeSource() == TimeSource.CALIBRATED ? 1 : 0);
                assertTrue(resets.host() >= FRAMES * perFrame, resets.host() + " queries reset from the host over " + FRAMES + " frames");
            }
            ctx.waitIdle();
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @Test
    void aWrappedDeviceWithoutHostQueryResetGetsResetCommands() {
        try (VulkanContext renderer = VulkanContext.create(ContextOptions.headless().withValidation(true));
             VulkanContext wrapped = VulkanContext.wrap(renderer.options(), renderer.instance(), renderer.physicalDevice(), renderer.device(),
                     renderer.queueFamily(), renderer.queue(), renderer.allocator(), renderer.debugUtils(), null,
                     renderer.enabledFeatures().without("hostQueryReset"));
             TimestampQueries queries = new TimestampQueries(wrapped, 2)) {
            for (int i = 0; i < 3; i++) {
                wrapped.submitAndWait(cmd -> {
                    queries.reset(cmd, 0, 2);
                    queries.write(cmd, 0);
                    queries.write(cmd, 1);
                });
                long[] ticks = new long[2];
                assertTrue(queries.read(0, 2, ticks), "written after the reset");
            }
            assertEquals(6, wrapped.queryResets().commands());
            assertEquals(0, wrapped.queryResets().host());
            renderer.waitIdle();
            assertEquals(0, renderer.validationLog().total(), () -> renderer.validationLog().messages().toString());
        }
    }

    private static void runFrames(Tally tally, ReadbackRing ring) {
        try (var commands = tally.frameCommands()) {
            frames(tally, ring, commands);
        }
    }

    private static void frames(Tally tally, ReadbackRing ring, dev.tally.FrameCommands commands) {
        for (int f = 0; f < FRAMES; f++) {
            dev.tally.Frame frame = tally.beginFrame();
            var cmd = commands.begin(frame);
            var g = frame.graph();
            var b = g.addPass("fill", dev.tally.graph.PassKind.TRANSFER,
                    pb -> pb.write(pb.create("value", dev.tally.graph.BufferDesc.of(16)), dev.tally.graph.Access.TRANSFER_DST),
                    (h, c) -> org.lwjgl.vulkan.VK10.vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, 16, 7));
            ring.capture(g, List.of(ReadbackRing.Region.of(b, 16)));
            frame.record(cmd);
            commands.end(cmd);
            frame.submit(cmd);
        }
    }
}

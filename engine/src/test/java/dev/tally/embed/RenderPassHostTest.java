package dev.tally.embed;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.readback.TimeSource;
import dev.tally.internal.vk.TrackedImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK13.VK_ACCESS_2_NONE;
import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_NONE;

/**
 * Tally in a host of the older style ({@link RenderPassHost}: a VkRenderPass, vkQueueSubmit, no VMA, three
 * frames in flight, a SAMPLED-only target): exact values, four frames late (readback.slots = 4 above
 * frames.inFlight = 3), no waits, no validation message. The validation layer checks a render pass's
 * attachment writes (Debian's 1.3.239 does not check dynamic rendering's), so a host that lies about the
 * state it leaves its image in is caught: SYNC-HAZARD.
 */
class RenderPassHostTest {
    private static final int FRAMES = 16;
    private static final int LAG = 4;

    /** The host claims the image is in COLOR_ATTACHMENT_OPTIMAL and untouched, though its render pass just wrote it. */
    private static final Access LIE = new Access("untouched (a lie)", VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, false);

    private static float level(long f) {
        return (float) Math.pow(2, (f / 3) % 5 - 2);
    }

    /** Runs the host's loop with Tally; returns how many samples were checked. */
    private static int run(RenderPassHost host, Access entry) {
        Config config = Config.load(null, List.of("frames.inFlight=" + RenderPassHost.FRAMES_IN_FLIGHT, "readback.slots=" + LAG));
        int checked = 0;
        try (Tally tally = Tally.wrap(config, host.host());
             TrackedImage target = TrackedImage.wrap(Engine.of(tally).context(), "scene.hdr", host.image, host.width, host.height, RenderPassHost.FORMAT,
                     RenderPassHost.USAGE);
             AutoExposure exposure = tally.autoExposure("scene", ExposureSettings.DEFAULTS);
             ReadbackRing ring = tally.readback("scene/readback", 4L + ExposureShaderLayout.EXPOSURE_BYTES)) {
            assertTrue(Engine.of(tally).context().ownsAllocator(), "no allocator from the host: Tally made its own");
            assertEquals(TimeSource.HOST_ESTIMATE, ring.timeSource(), "the host did not enable calibrated timestamps: ages are host estimates");
            assertEquals(TimeSource.HOST_ESTIMATE, ring.stats().timeSource());
            long waits = Engine.of(tally).waits().total().count();
            try {
                for (long f = 0; f < FRAMES; f++) {
                    VkCommandBuffer cmd = host.begin(f);      // the host's fence for frame f - 3
                    Frame frame = tally.beginFrame();
                    Sample s = ring.latest().orElse(null);
                    if (f >= LAG) {
                        assertNotNull(s, "frame " + f);
                        assertEquals(f - LAG, s.frame(), "exactly four frames late with three in flight");
                        assertEquals(LAG, s.lag());
                        assertEquals((float) host.width * host.height, s.floatAt(0), "the histogram's total is the pixel count");
                        checked++;
                    }
                    host.draw(cmd, level(f));
                    ImageHandle hdr = frame.graph().importImage("scene.hdr", target, entry, Access.COLOR_ATTACHMENT);
                    AutoExposure.Result r = exposure.add(frame.graph(), hdr, 1f / 60);
                    ring.capture(frame.graph(), List.of(ReadbackRing.Region.of(r.total(), 4),
                            ReadbackRing.Region.of(r.exposure(), ExposureShaderLayout.EXPOSURE_BYTES)));
                    frame.record(cmd);
                    host.submit(f, cmd, frame::signal);       // Tally's signal in the host's VkSubmitInfo
                }
                assertEquals(waits, Engine.of(tally).waits().total().count(), "Tally never waited on the frame path");
            } finally {
                host.idle();   // the wrapped image may be destroyed once the GPU finished every frame that used it
            }
        }
        return checked;
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"17,9", "1001,333"})
    void aRenderPassHostOnVkQueueSubmitWithoutVmaGetsExactValuesFourFramesLateAndNoValidationMessage(int width, int height) {
        try (RenderPassHost host = new RenderPassHost(width, height)) {
            assertEquals(FRAMES - LAG, run(host, Access.COLOR_ATTACHMENT));
            host.idle();
            assertEquals(List.of(), host.messages, "validation and synchronization validation said nothing");
        }
    }

    @Test
    void aHostThatLiesAboutItsImagesEntryStateIsCaughtAsASyncHazard() {
        List<String> messages;
        try (RenderPassHost host = new RenderPassHost(64, 48)) {
            run(host, LIE);
            messages = List.copyOf(host.messages);
        }
        assertTrue(messages.stream().anyMatch(m -> m.contains("SYNC-HAZARD")), () -> "expected a SYNC-HAZARD, got " + messages);
    }
}

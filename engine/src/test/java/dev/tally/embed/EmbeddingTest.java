package dev.tally.embed;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.exposure.AutoExposure;
import dev.tally.internal.exposure.ExposureModel;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Metering;
import dev.tally.graph.Access;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.internal.reduce.DeviceArray;
import dev.tally.internal.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.tally.internal.vk.VkCheck.check;
import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.vkQueueSubmit2;

/**
 * Tally as an engine embeds it: on the renderer's device and queue, recording into the renderer's
 * command buffers, signalling its timeline in the renderer's own submits, two frames in flight with no
 * idle waits, one or two views (each with its own auto-exposure and readback ring) in one graph.
 */
class EmbeddingTest {
    private static final int FRAMES = 40;
    private static final float DT = 1f / 60;

    private static Config config() {
        return Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
    }

    /** A level for frame f of view v: powers of two, exact in half floats, so the CPU model sees what the GPU stores. */
    private static float level(int view, long f) {
        return (float) Math.pow(2, ((f / 5 + view * 3) % 9) - 4);
    }

    @ParameterizedTest(name = "{0} view(s)")
    @ValueSource(ints = {1, 2})
    void viewsInOneGraphOnTheHostsSubmitsMatchTheModelFrameByFrame(int views) {
        int[][] sizes = {{64, 48}, {40, 30}};
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config(), host.host())) {
            List<TrackedImage> targets = new ArrayList<>();
            List<AutoExposure> exposures = new ArrayList<>();
            List<ReadbackRing> rings = new ArrayList<>();
            try {
                for (int v = 0; v < views; v++) {
                    targets.add(TrackedImage.create(host.device, "view" + v + ".hdr", sizes[v][0], sizes[v][1], VK_FORMAT_R16G16B16A16_SFLOAT,
                            VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
                    exposures.add(tally.autoExposure("view" + v, ExposureSettings.DEFAULTS));
                    rings.add(tally.readback("view" + v + "/readback", 4L * (1 + ExposureShaderLayout.EXPOSURE_FLOATS)));
                }
                float[][][] model = new float[views][FRAMES][];
                float[][] filtered = new float[views][ExposureShaderLayout.NORMALIZED_FLOATS];   // the model's histogram history
                float[] curve = ExposureSettings.DEFAULTS.curve().bake();
                long waitsBefore = Engine.of(tally).waits().total().count();
                int checked = 0;
                for (long f = 0; f < FRAMES; f++) {
                    VkCommandBuffer cmd = host.begin(f);   // the renderer paces first (its fence for frame f - 2), as engines do
                    Frame frame = tally.beginFrame();
                    for (int v = 0; v < views; v++) {
                        Sample s = rings.get(v).latest().orElse(null);
                        if (f >= 3) {
                            assertNotNull(s, "view " + v + " frame " + f);
                            assertEquals(f - 3, s.frame(), "exactly three frames late");
                            assertEquals(3, s.lag());
                            assertEquals((float) sizes[v][0] * sizes[v][1], s.floatAt(0), "the histogram's total is the view's pixel count");
                            float gpuEv = s.floatAt(1 + ExposureShaderLayout.EV);
                            float modelEv = model[v][(int) s.frame()][ExposureShaderLayout.EV];
                            assertEquals(modelEv, gpuEv, 1e-4, "view " + v + " frame " + s.frame() + " EV against the CPU model");
                            checked++;
                        }
                    }
                    for (int v = 0; v < views; v++) {
                        float level = level(v, f);
                        HostRenderer.clear(cmd, targets.get(v), level, f == 0);   // the renderer's own scene
                        // What the model expects of this frame: a uniform image at this level.
                        int w = sizes[v][0], h = sizes[v][1];
                        float[] rgba = new float[4 * w * h];
                        for (int i = 0; i < w * h; i++) {
                            rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = level;
                            rgba[4 * i + 3] = 1;
                        }
                        float[] normalized = ExposureModel.normalize(ExposureModel.histogram(rgba, w, h, Metering.UNIFORM, null, ExposureSettings.DEFAULTS));
                        float[] previous = f == 0 ? new float[ExposureShaderLayout.EXPOSURE_FLOATS] : model[v][(int) f - 1];
                        ExposureModel.Step step = ExposureModel.exposure(normalized, filtered[v], previous, curve, DT, false, ExposureSettings.DEFAULTS);
                        model[v][(int) f] = step.record();
                        filtered[v] = step.filtered();

                        ImageHandle hdr = frame.graph().importImage("view" + v + ".hdr", targets.get(v), Access.TRANSFER_DST, Access.TRANSFER_DST);
                        AutoExposure.Result r = exposures.get(v).add(frame.graph(), hdr, DT);
                        rings.get(v).capture(frame.graph(), List.of(ReadbackRing.Region.of(r.total(), 4),
                                ReadbackRing.Region.of(r.exposure(), ExposureShaderLayout.EXPOSURE_BYTES)));
                    }
                    frame.record(cmd);
                    host.submit(f, cmd, frame::signal);
                }
                assertEquals(views * (FRAMES - 3), checked);
                assertEquals(waitsBefore, Engine.of(tally).waits().total().count(), "Tally never waited on the frame path");
                host.idle();
                assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
            } finally {
                host.idle();
                exposures.forEach(AutoExposure::close);
                rings.forEach(ReadbackRing::close);
                targets.forEach(TrackedImage::close);
            }
        }
    }

    @Test
    void aForgottenSubmissionHookIsAnErrorNamingTheFrameAtTheNextBegin() {
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config(), host.host());
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
             var sum = tally.reduceNode("count", ReduceOp.SUM, 16)) {
            Frame frame = tally.beginFrame();
            sum.add(frame.graph(), frame.graph().importBuffer("data", data, null), 16);
            VkCommandBuffer cmd = host.begin(0);
            frame.record(cmd);
            host.submit(0, cmd, (submit, stack) -> {
            });   // the host forgot frame.signal(submit, stack)
            IllegalStateException e = assertThrows(IllegalStateException.class, tally::beginFrame);
            assertTrue(e.getMessage().startsWith("frame 0 was recorded but never handed to a submission"), e.getMessage());
            assertTrue(e.getMessage().contains("VkSubmitInfo2 (vkQueueSubmit2)") && e.getMessage().contains("VkSubmitInfo (vkQueueSubmit)"),
                    "names both submit styles: " + e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            // Nothing was freed behind the GPU's back: Tally refuses work of its own until the frame is accounted for.
            assertThrows(IllegalStateException.class, () -> Engine.of(tally).context().submitAndWait(c -> {
            }));
            // The way back: hand the frame's signal to a submit of no command buffers (after the one that ran its work).
            try (MemoryStack stack = stackPush()) {
                VkSubmitInfo2 empty = VkSubmitInfo2.calloc(stack).sType$Default();
                frame.signal(empty, stack);
                host.queueLock.lock();
                try {
                    check(vkQueueSubmit2(host.device.queue(), VkSubmitInfo2.create(empty.address(), 1), VK_NULL_HANDLE), "vkQueueSubmit2(signal only)");
                } finally {
                    host.queueLock.unlock();
                }
            }
            host.idle();
            Frame next = tally.beginFrame();   // accounted for: the next frame begins
            assertEquals(1, next.number());
            next.abandon();
            host.idle();   // the host's own submit still reads 'data'; it is closed below
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void aHostThreadSubmittingOnTheSharedQueueWithTheLockIsClean() throws Exception {
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config(), host.host());
             TrackedBuffer scratch = new TrackedBuffer(host.device, "host.scratch", 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 1 << 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.DEVICE);
             var sum = tally.reduceNode("count", ReduceOp.SUM, 1 << 14);
             var commands = tally.frameCommands()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong hostSubmits = new AtomicLong();
            long pool;
            try (MemoryStack stack = stackPush()) {
                pool = host.device.createCommandPool(stack, 0);
            }
            VkCommandBuffer hostCmd = host.device.allocateCommandBuffer(pool);
            try (MemoryStack stack = stackPush()) {
                check(vkBeginCommandBuffer(hostCmd, org.lwjgl.vulkan.VkCommandBufferBeginInfo.calloc(stack).sType$Default()), "begin");
                vkCmdFillBuffer(hostCmd, scratch.handle(), 0, 4096, 7);
                check(vkEndCommandBuffer(hostCmd), "end");
            }
            Thread other = new Thread(() -> {
                while (!stop.get()) {
                    try (MemoryStack stack = stackPush()) {
                        VkSubmitInfo2.Buffer submit = VkSubmitInfo2.calloc(1, stack).sType$Default()
                                .pCommandBufferInfos(VkCommandBufferSubmitInfo.calloc(1, stack).sType$Default().commandBuffer(hostCmd));
                        host.queueLock.lock();
                        try {
                            check(vkQueueSubmit2(host.device.queue(), submit, VK_NULL_HANDLE), "host vkQueueSubmit2");
                            check(vkQueueWaitIdle(host.device.queue()), "host vkQueueWaitIdle");   // the one command buffer is reused
                        } finally {
                            host.queueLock.unlock();
                        }
                        hostSubmits.incrementAndGet();
                    }
                }
            }, "host-submitter");
            other.start();
            try {
                for (int f = 0; f < 60; f++) {
                    Frame frame = tally.beginFrame();
                    VkCommandBuffer cmd = commands.begin(frame);
                    sum.add(frame.graph(), frame.graph().importBuffer("data", data, null), 1 << 14);
                    frame.record(cmd);
                    commands.end(cmd);
                    frame.submit(cmd);   // Tally takes the host's lock around its vkQueueSubmit2
                }
            } finally {
                stop.set(true);
                other.join(60_000);
            }
            assertTrue(hostSubmits.get() > 0, "the host submitted concurrently");
            host.idle();
            vkDestroyCommandPool(host.device.device(), pool, null);
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void tallyRunsOnTheRenderersDeviceAndLeavesItAlive() {
        try (HostRenderer host = new HostRenderer(2)) {
            float[] data = new float[1000];
            java.util.Arrays.fill(data, 0.5f);
            try (Tally tally = Tally.wrap(config(), host.host());
                 DeviceArray array = DeviceArray.of(Engine.of(tally).context(), "wrapped.input", data);
                 OneShotReduction one = new OneShotReduction(Engine.of(tally).context(), Engine.of(tally).reducer())) {
                assertEquals(500f, one.reduce(ReduceOp.SUM, array).value());
                assertEquals(host.device.info().name(), Engine.of(tally).context().info().name());
                assertEquals(0, Engine.of(tally).waits().of(Waits.Cause.PACING).count());
            }
            // The renderer's device and allocator still work after Tally closed.
            try (TrackedBuffer b = new TrackedBuffer(host.device, "after", 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
                host.device.submitAndWait(cmd -> vkCmdFillBuffer(cmd, b.handle(), 0, 64, 1));
            }
            host.device.waitIdle();
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }
}

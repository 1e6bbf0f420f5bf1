package dev.tally.embed;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.Delivery;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.SampleListener;
import dev.tally.readback.Subscription;
import dev.tally.reduce.ReduceStats;
import dev.tally.reduce.StatsNode;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.vk.TrackedImage;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkImageSubresourceRange;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Heap bytes the frame thread allocates per frame when an engine embeds Tally as the embedding example does: the host's
 * device, command buffers, fences and submits (written by address, as a garbage-free engine writes them), two views in one
 * graph, each with its auto-exposure, a statistics node over its bins and a readback ring delivering into the host's array
 * through a callback (the left view's ring captures three regions from a source list it refills, the right view's the
 * statistics buffer whole), Tally's signal added to the host's own submit. Counted by the JVM (ThreadMXBean) over steady frames after a warm-up, with
 * validation on. The frames run in a JVM of their own: the test JVM tracks every MemoryStack frame (LWJGL's debug stack),
 * which allocates on each push and is not the path hosts run.
 */
class EmbeddedFrameGarbageTest {
    private static final int WARM_UP = 1_000;
    private static final int FRAMES = 300;
    /** Windows of {@link #FRAMES} frames measured in a row; the check takes the one with the fewest bytes. */
    private static final int WINDOWS = 3;
    /**
     * Less than one object per frame (the smallest is 16 B): a frame makes none, the frame objects are reused too (56 B
     * per frame while each frame made its own); a few hundred bytes over the whole run (216 B in 300 frames, seen) are
     * one-off work such as a pipeline or timing table made late, not the frame's.
     */
    private static final double MAX_BYTES_PER_FRAME = 8;

    @Test
    void anEmbeddedFrameOfTwoViewsAllocatesNothing() throws IOException, InterruptedException {
        check(false, MAX_BYTES_PER_FRAME);
    }

    /**
     * Exactly 0 B with the optimizing compiler off ({@code -XX:TieredStopAtLevel=1}): the frame's code as written, with no
     * escape analysis to remove an allocation and none of C2's own (HotSpot resolves a class's string constants on the
     * requesting thread when it queues a method for C2: a one-off per class, which the bound above leaves room for).
     */
    @Test
    void anEmbeddedFrameAllocatesNothingAsWritten() throws IOException, InterruptedException {
        check(true, 0);
    }

    private static void check(boolean c1Only, double maxBytesPerFrame) throws IOException, InterruptedException {
        Path out = Files.createTempFile("tally-embed-alloc", ".txt");
        try {
            List<String> command = new java.util.ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xss4m"));
            if (c1Only) {
                command.add("-XX:TieredStopAtLevel=1");
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("the frames did not finish in 180 s: " + Files.readString(out));
            }
            String text = Files.readString(out);
            assertEquals(0, p.exitValue(), text);
            String line = text.lines().filter(l -> l.startsWith("bytes ")).findFirst().orElseThrow(() -> new AssertionError(text));
            String[] f = line.split(" ");
            long bytes = Long.parseLong(f[1]);
            long frames = Long.parseLong(f[2]);
            assertEquals(FRAMES, frames, text);
            assertEquals(0, Long.parseLong(f[3]), "validation messages: " + text);
            assertTrue(Long.parseLong(f[4]) > WINDOWS * FRAMES, "the rings delivered into the host's arrays every frame: " + text);
            double perFrame = (double) bytes / frames;
            assertTrue(perFrame <= maxBytesPerFrame, String.format(Locale.ROOT, "%.1f bytes allocated per embedded frame (%d in %d frames%s, the"
                    + " fewest of %d windows: %s); at most %.0f expected", perFrame, bytes, frames, c1Only ? ", C1 only" : "", WINDOWS, f[5], maxBytesPerFrame));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** One view: the host's HDR target, its auto-exposure and readback ring, and the source list it refills for the ring. */
    private static final class View implements SampleListener {
        final TrackedImage target;
        final AutoExposure exposure;
        final ReadbackRing ring;
        /** The bins' statistics, as the example's views keep them. */
        final StatsNode binStats;
        final float[] values = new float[1 + ExposureShaderLayout.EXPOSURE_FLOATS + ReduceStats.RECORD_BYTES / 4];
        final Subscription subscription;
        long deliveries;
        /** The capture's sources, refilled each frame. */
        private final ReadbackRing.SourceList captured;

        View(HostRenderer host, Tally tally, String name, int width, int height) {
            target = TrackedImage.create(host.device, name + ".hdr", width, height, VK_FORMAT_R16G16B16A16_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
            exposure = tally.autoExposure(name, ExposureSettings.DEFAULTS);
            binStats = tally.statsNode(name + "/bins", ExposureShaderLayout.BINS);
            ring = tally.readback(name + "/readback", 4L * values.length);
            subscription = ring.onSample(values, this);
            captured = ring.sourceList();
        }

        @Override
        public void delivered(Delivery sample) {
            deliveries++;
        }

        ReadbackRing.SourceList capture(AutoExposure.Result r, BufferHandle s) {
            return captured.clear().buffer(r.total(), 4).buffer(r.exposure(), ExposureShaderLayout.EXPOSURE_BYTES)
                    .buffer(s, ReduceStats.RECORD_BYTES);
        }

        void close() {
            subscription.close();
            ring.close();
            binStats.close();
            exposure.close();
            target.close();
        }
    }

    /** The host's own scene pass, by address: a clear of the target (in TRANSFER_DST after the first frame's barrier). */
    private static void scene(VkCommandBuffer cmd, TrackedImage image, float level, boolean first) {
        if (first) {
            HostRenderer.clear(cmd, image, level, true);
            return;
        }
        try (MemoryStack stack = stackPush()) {
            long range = stack.ncalloc(VkImageSubresourceRange.ALIGNOF, 1, VkImageSubresourceRange.SIZEOF);
            VkImageSubresourceRange.naspectMask(range, VK_IMAGE_ASPECT_COLOR_BIT);
            VkImageSubresourceRange.nlevelCount(range, 1);
            VkImageSubresourceRange.nlayerCount(range, 1);
            long color = stack.ncalloc(VkClearColorValue.ALIGNOF, 1, VkClearColorValue.SIZEOF);
            for (int i = 0; i < 3; i++) {
                MemoryUtil.memPutFloat(color + 4L * i, level);
            }
            MemoryUtil.memPutFloat(color + 12, 1);
            nvkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color, 1, range);
        }
    }

    /** Runs the frames and prints "bytes FEWEST_BYTES FRAMES VALIDATION_MESSAGES DELIVERIES [EACH_WINDOW'S_BYTES]". */
    public static final class Probe {
        public static void main(String[] args) throws ReflectiveOperationException {
            Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Method allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            VkSubmitInfo2 submit = VkSubmitInfo2.calloc();   // the host's submit info: made once, rewritten every frame
            try (HostRenderer host = new HostRenderer(2);
                 Tally tally = Tally.wrap(Config.load(null, List.of("frames.inFlight=2", "readback.slots=3")), host.host())) {
                View[] views = {new View(host, tally, "left", 64, 48), new View(host, tally, "right", 40, 30)};
                try {
                    long f = 0;
                    for (int warmUp = Integer.getInteger("warmUp", WARM_UP); f < warmUp; f++) {
                        frame(host, tally, views, submit, f);
                    }
                    int frames = Integer.getInteger("frames", FRAMES);   // read before the window: a property lookup allocates
                    // The reflective call's own boxing, measured over an empty window and taken off.
                    long empty = -(long) allocated.invoke(threads) + (long) allocated.invoke(threads);
                    // Windows in a row, the fewest bytes counted: an allocation the frame makes is in each of them, where a one-off
                    // of the JVM's (a method queued for C2 late on a loaded machine) lands in one.
                    long[] windows = new long[WINDOWS];
                    for (int w = 0; w < WINDOWS; w++) {
                        long before = (long) allocated.invoke(threads);
                        for (int i = 0; i < frames; i++, f++) {
                            frame(host, tally, views, submit, f);
                        }
                        windows[w] = Math.max(0, (long) allocated.invoke(threads) - before - empty);
                    }
                    host.idle();
                    System.out.printf(Locale.ROOT, "bytes %d %d %d %d %s%n", Arrays.stream(windows).min().getAsLong(), frames,
                            host.device.validationLog().total(), views[0].deliveries + views[1].deliveries, Arrays.toString(windows).replace(" ", ""));
                } finally {
                    host.idle();
                    for (View v : views) {
                        v.close();
                    }
                }
            } finally {
                submit.free();
            }
        }

        private static void frame(HostRenderer host, Tally tally, View[] views, VkSubmitInfo2 submit, long f) {
            VkCommandBuffer cmd = host.beginByAddress(f);   // the host paces first (its fence of frame f - 2)
            Frame frame = tally.beginFrame();               // delivers the readbacks that are due, into the views' arrays
            for (int v = 0; v < views.length; v++) {
                View view = views[v];
                scene(cmd, view.target, (float) Math.pow(2, (f / 5 + v * 3) % 9 - 4), f == 0);
                ImageHandle hdr = frame.graph().importImage(view.target.name(), view.target, Access.TRANSFER_DST, Access.TRANSFER_DST);
                AutoExposure.Result r = view.exposure.add(frame.graph(), hdr, 1f / 60);
                BufferHandle stats = view.binStats.add(frame.graph(), r.bins(), ExposureShaderLayout.BINS);
                if (v == 0) {
                    view.ring.capture(frame.graph(), view.capture(r, stats));
                } else {
                    view.ring.capture(frame.graph(), stats);   // the one-buffer capture: the statistics record, whole
                }
            }
            frame.record(cmd);
            host.submitByAddress(f, cmd, submit, frame);
        }
    }
}

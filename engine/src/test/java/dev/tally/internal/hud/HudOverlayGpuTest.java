package dev.tally.internal.hud;

import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.hud.ExposurePlot;

import dev.tally.hud.HudOverlay;

import dev.tally.internal.engine.Engine;

import dev.tally.GpuTestBase;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The HUD drawn on lavapipe and read back: text from the TrueType font (descenders below the
 * baseline, capital height at 4K) and the exposure plot fed on the GPU from the exposure record.
 */
class HudOverlayGpuTest extends GpuTestBase {
    private static final float MIN_EV = -10, MAX_EV = 20;

    /** Renders {@code frames} HUD frames over black, the exposure record set by {@code record} per frame; returns RGBA pixels. */
    private byte[] render(int w, int h, List<String> lines, int frames, java.util.function.IntFunction<float[]> record, boolean plot) {
        var ctx = Engine.of(runtime).context();
        try (
             FrameCommands loop = runtime.frameCommands();
             HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION);
             ExposurePlotNode history = new ExposurePlotNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache());
             TrackedImage image = TrackedImage.create(ctx, "test.target", w, h, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
             TrackedBuffer normalized = zeroed("test.normalized", ExposureShaderLayout.NORMALIZED_BYTES);
             TrackedBuffer exposure = zeroed("test.exposure", ExposureShaderLayout.EXPOSURE_BYTES);
             TrackedBuffer host = new TrackedBuffer(ctx, "test.pixels", 4L * w * h, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            for (int f = 0; f < frames; f++) {
                ByteBuffer rec = MemoryUtil.memByteBuffer(exposure.mappedAddress(), (int) exposure.size());
                rec.asFloatBuffer().put(0, record.apply(f));
                exposure.flush(0, exposure.size());
                Frame frame = runtime.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle target = g.importImage("target", image, null);
                BufferHandle norm = g.importBuffer("normalized", normalized, null);
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                ImageHandle cleared = g.addPass("clear", PassKind.GRAPHICS, b -> b.colorAttachment(target, new float[]{0, 0, 0, 1}), (x, c) -> {
                });
                ExposurePlot.View view = plot ? history.add(g, exp, 0.1f * f) : null;
                ImageHandle drawn = hud.add(g, cleared, lines,
                        new HudOverlay.HistogramView(norm, exp, MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV)), view);
                copyToHost(g, drawn, host, w, h);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
                ctx.waitIdle();   // the host rewrites the exposure record before the next frame
            }
            host.invalidate(0, host.size());
            byte[] rgba = new byte[(int) host.size()];
            MemoryUtil.memByteBuffer(host.mappedAddress(), rgba.length).get(rgba);
            return rgba;
        }
    }

    @Test
    void aNullViewOrASecondHudInOneFrameIsRefusedAndTheFirstStillDraws() {
        var ctx = Engine.of(runtime).context();
        int w = 64, h = 36;
        try (FrameCommands loop = runtime.frameCommands();
             HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION);
             TrackedImage image = TrackedImage.create(ctx, "test.target", w, h, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
             TrackedBuffer normalized = zeroed("test.normalized", ExposureShaderLayout.NORMALIZED_BYTES);
             TrackedBuffer exposure = zeroed("test.exposure", ExposureShaderLayout.EXPOSURE_BYTES);
             TrackedBuffer host = new TrackedBuffer(ctx, "test.pixels", 4L * w * h, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            for (int f = 0; f < 2; f++) {   // the next frame takes the overlay again
                Frame frame = runtime.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle target = g.importImage("target", image, null);
                BufferHandle norm = g.importBuffer("normalized", normalized, null);
                BufferHandle exp = g.importBuffer("exposure", exposure, null);
                ImageHandle cleared = g.addPass("clear", PassKind.GRAPHICS, b -> b.colorAttachment(target, new float[]{0, 0, 0, 1}), (x, c) -> {
                });
                HudOverlay.HistogramView view = new HudOverlay.HistogramView(norm, exp, MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV));
                // Refused where handed, before the overlay takes the frame: the add after them still draws.
                IllegalArgumentException noView = assertThrows(IllegalArgumentException.class,
                        () -> hud.add(g, "hud.left", cleared, List.of("left"), (HudOverlay.HistogramView) null, null));
                assertEquals("HUD overlay: pass 'hud.left': the histogram view is null", noView.getMessage());
                IllegalArgumentException noResult = assertThrows(IllegalArgumentException.class,
                        () -> hud.add(g, cleared, List.of("left"), (AutoExposure.Result) null, ExposureSettings.DEFAULTS, null));
                assertEquals("HUD overlay: pass 'hud': the auto-exposure result is null", noResult.getMessage());
                IllegalArgumentException noSettings = assertThrows(IllegalArgumentException.class,
                        () -> hud.add(g, "hud.left", cleared, List.of("left"), new AutoExposure.Result(norm, norm, norm, exp), null, null));
                assertEquals("HUD overlay: pass 'hud.left': the exposure settings are null", noSettings.getMessage());
                ImageHandle drawn = hud.add(g, "hud.left", cleared, List.of("left"), view, null);
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> hud.add(g, "hud.right", drawn, List.of("right"), view, null));
                assertEquals("HUD overlay: pass 'hud.right' added in frame " + frame.number() + " after pass 'hud.left'; an overlay draws one HUD"
                        + " a frame: make one per view (Tally.hud())", e.getMessage());
                copyToHost(g, drawn, host, w, h);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
                ctx.waitIdle();
                host.invalidate(0, host.size());
                // The first HUD was drawn: its text (the title colour, over a black clear) lights some pixels.
                ByteBuffer px = MemoryUtil.memByteBuffer(host.mappedAddress(), (int) host.size());
                int lit = 0;
                for (int i = 0; i < w * h; i++) {
                    lit += Math.max(px.get(4 * i) & 0xff, Math.max(px.get(4 * i + 1) & 0xff, px.get(4 * i + 2) & 0xff)) > 32 ? 1 : 0;
                }
                assertTrue(lit > 0, "frame " + f + ": the first HUD's text was drawn");
            }
        }
    }

    /**
     * On a CPU device the HUD draws with its graphics pass even over an RGBA8 storage image: one without colour-attachment
     * usage is refused where it is handed, in one line naming the usage, not met by a validation message each frame.
     */
    @Test
    void aTargetTheGraphicsPassCannotDrawIsRefusedNamingTheUsage() {
        var ctx = Engine.of(runtime).context();
        try (HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION);
             TrackedImage image = TrackedImage.create(ctx, "test.storageOnly", 64, 36, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
             TrackedBuffer normalized = zeroed("test.normalized", ExposureShaderLayout.NORMALIZED_BYTES);
             TrackedBuffer exposure = zeroed("test.exposure", ExposureShaderLayout.EXPOSURE_BYTES)) {
            Frame frame = runtime.beginFrame();
            FrameGraph g = frame.graph();
            ImageHandle target = g.importImage("storageOnly", image, null);
            HudOverlay.HistogramView view = new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null),
                    g.importBuffer("exposure", exposure, null), MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV));
            assertFalse(hud.usesCompute(g.desc(target)), "premise: a CPU device draws the HUD with its graphics pass");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> hud.add(g, target, List.of("x"), view, null));
            assertEquals("HUD overlay: pass 'hud' draws over image 'storageOnly' with a graphics pass here, which needs"
                    + " VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT; add it to the image's usage (the compute pass, taken only on a GPU, needs an"
                    + " R8G8B8A8_UNORM image with storage usage)", e.getMessage());
            frame.abandon();
        }
        assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
    }

    /** Adds pass {@code copy}: {@code image} ({@code w x h} RGBA8) into {@code host}, read by the host after the frame. */
    static void copyToHost(FrameGraph g, ImageHandle image, TrackedBuffer host, int w, int h) {
        BufferHandle dst = g.importBuffer("pixels", host, Access.HOST_READ);
        record Io(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("copy", PassKind.TRANSFER, b -> {
            b.sideEffect();
            return new Io(b.read(image, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
        }, (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                region.imageExtent().set(w, h, 1);
                vkCmdCopyImageToBuffer(c.cmd(), c.image(io.src()).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.buffer(io.dst()).handle(), region);
            }
        });
    }

    private TrackedBuffer zeroed(String name, long size) {
        TrackedBuffer b = new TrackedBuffer(Engine.of(runtime).context(), name, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
        MemoryUtil.memSet(b.mappedAddress(), 0, size);
        b.flush(0, size);
        return b;
    }

    private static int channel(byte[] rgba, int w, int x, int y, int c) {
        return rgba[4 * (y * w + x) + c] & 0xff;
    }

    /** Rows in [y0, y1) holding a text pixel (white, over half covered) between columns x0 and x1. */
    private static int inkRows(byte[] rgba, int w, int x0, int x1, int y0, int y1) {
        int rows = 0;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                if (channel(rgba, w, x, y, 1) > 128) {
                    rows++;
                    break;
                }
            }
        }
        return rows;
    }

    @Test
    void textHasDescendersAndReadableCapitalsAt4K() {
        int w = 3840, h = 2160;
        List<String> lines = List.of("HHHH", "g p q y", "a c e o");
        byte[] px = render(w, h, lines, 1, f -> new float[8], false);
        FontAtlas font = FontAtlas.bake(FontAtlas.pixelHeightFor(h, HudOverlayNode.DEFAULT_TEXT_FRACTION));
        HudLayout layout = HudLayout.of(font, w, h, lines, false);
        int x0 = layout.textX(), x1 = x0 + font.textWidth("g p q y");

        int capitals = inkRows(px, w, x0, x1, layout.baseline(0) - font.ascent(), layout.baseline(0) + 1);
        assertTrue(capitals >= 24, "capital H at 3840x2160 is " + capitals + " px tall, want >= 24");
        assertEquals(0, inkRows(px, w, x0, x1, layout.baseline(0) + 2, layout.baseline(0) + font.descent()), "H has no descender");

        int below = inkRows(px, w, x0, x1, layout.baseline(1) + 2, layout.baseline(1) + font.descent());
        assertTrue(below >= font.descent() / 3, "'g p q y' has " + below + " ink rows below its baseline");
        assertEquals(0, inkRows(px, w, x0, x1, layout.baseline(2) + 2, layout.baseline(2) + font.descent()),
                "'a c e o' has no ink below its baseline");
        assertTrue(inkRows(px, w, x0, x1, layout.baseline(2) - font.ascent(), layout.baseline(2) + 1) > 0, "'a c e o' is drawn");
    }

    @Test
    void plotDrawsAppliedAndTargetEvFromTheGpuRecord() {
        int w = 1280, h = 720;
        float applied = 2, target = 13;
        float[] rec = new float[ExposureShaderLayout.EXPOSURE_FLOATS];
        rec[ExposureShaderLayout.EV] = applied;
        rec[ExposureShaderLayout.TARGET_EV] = target;
        rec[ExposureShaderLayout.VALID] = 1;
        // Frame 0 has no valid record: nothing is appended for it.
        byte[] px = render(w, h, List.of("plot"), 12, f -> f == 0 ? new float[8] : rec, true);
        FontAtlas font = FontAtlas.bake(FontAtlas.pixelHeightFor(h, HudOverlayNode.DEFAULT_TEXT_FRACTION));
        HudLayout layout = HudLayout.of(font, w, h, List.of("plot"), true);
        HudLayout.Rect area = layout.plotArea();
        // The newest point is at the right edge; the line reaches back 1.0 s of the 10 s window.
        int inside = (int) (area.x() + area.w() * 0.95f), outside = (int) (area.x() + area.w() * 0.5f);
        int appliedY = Math.round(layout.evToY(applied, MIN_EV, MAX_EV)), targetY = Math.round(layout.evToY(target, MIN_EV, MAX_EV));
        assertTrue(isApplied(px, w, inside, appliedY), "applied EV line at y=" + appliedY);
        assertTrue(isTarget(px, w, inside, targetY), "target EV line at y=" + targetY);
        assertFalse(isApplied(px, w, inside, targetY) || isTarget(px, w, inside, appliedY), "lines swapped");
        assertFalse(isApplied(px, w, outside, appliedY), "no line older than the frames rendered");
    }

    private static boolean isApplied(byte[] px, int w, int x, int y) {   // orange: red high, blue low
        return channel(px, w, x, y, 0) > 200 && channel(px, w, x, y, 2) < 120;
    }

    private static boolean isTarget(byte[] px, int w, int x, int y) {    // light blue: blue high, red low
        return channel(px, w, x, y, 2) > 200 && channel(px, w, x, y, 0) < 150;
    }
}

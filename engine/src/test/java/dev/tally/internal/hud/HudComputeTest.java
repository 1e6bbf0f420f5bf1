package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.hud.HudOverlay;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The compute HUD stores what the graphics HUD stores (within one 8-bit step), pixel for pixel: text,
 * panels, histogram bars and markers, grid lines and both plot lines, blended over a busy background.
 */
class HudComputeTest extends GpuTestBase {
    /** The output, per test: 1283 x 721 unless a test says otherwise (not multiples of the 16 x 16 tile). */
    private int W = 1283, H = 721;
    private static final float MIN_EV = -10, MAX_EV = 20;
    private static final int FRAMES = 40;
    private static final List<String> LINES = List.of("Tally HUD | compute vs graphics", "fps 123.4  frame 7.89 ms", "EV +3.25 (target +5.50)",
            "gjpqy descenders, {[()]} | @#$%&*", "histogram 31.2 us  reduce 4.7 us");

    /** Applied and target EV at frame f of the plot's history. */
    private interface Curves {
        float ev(int f);

        float target(int f);

        /** Bytes that may differ by one 8-bit step, per byte drawn: each blended layer may round either way. */
        default int drawnPerRoundedByte() {
            return 50;
        }
    }

    /** A rising diagonal and a zig-zag: segments of every slope. */
    private static final Curves GENTLE = new Curves() {
        public float ev(int f) {
            return -4 + 0.37f * f;
        }

        public float target(int f) {
            return 14 - 0.21f * f + (f % 3);
        }
    };

    /**
     * Square waves across most of the EV range, a few points per level: near-vertical jumps between
     * flat runs, in step, so a jump crosses many subgroups' rows while its end points lie far above
     * or below them, and the columns right of a jump's start hold only end points of the other level.
     */
    private static final Curves STEEP = new Curves() {
        public float ev(int f) {
            return f / 4 % 2 == 0 ? -8 : 17;
        }

        public float target(int f) {
            return f / 4 % 2 == 0 ? -5 : 14;
        }

        public int drawnPerRoundedByte() {
            return 25;   // the jumps' pixels lie under the caps of both lines: more layers per pixel to round
        }
    };

    @Test
    void computeAndGraphicsPathsAgreeWithinRounding() {
        assertPathsAgree(GENTLE);
    }

    @Test
    void steepPlotLinesAgree() {
        assertPathsAgree(STEEP);
    }

    /**
     * An output small enough that the text panel overlaps the graphs' panels: where two panels cover a pixel, the compute
     * path must blend both in draw order, as the graphics path's draws do.
     */
    @Test
    void overlappingPanelsAgree() {
        W = 211;
        H = 97;
        try (HudOverlayNode hud = new HudOverlayNode(Engine.of(runtime).context(), Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(),
                HudOverlayNode.DEFAULT_TEXT_FRACTION, true)) {
            HudLayout layout = HudLayout.of(hud.font(H), W, H, LINES, true);
            assertTrue(overlap(layout.textPanel(), layout.histogram()) && overlap(layout.textPanel(), layout.plot()),
                    "at " + W + "x" + H + " the text panel " + layout.textPanel() + " overlaps both graphs' panels " + layout.histogram() + ", " + layout.plot());
        }
        assertPathsAgree(GENTLE);
    }

    private static boolean overlap(HudLayout.Rect a, HudLayout.Rect b) {
        return a.x0() < b.x1() && b.x0() < a.x1() && a.y0() < b.y1() && b.y0() < a.y1();
    }

    private void assertPathsAgree(Curves curves) {
        var ctx = Engine.of(runtime).context();
        int storage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        int attachment = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        try (HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION, true)) {
            assertTrue(hud.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, storage)), "RGBA8 storage target takes compute");
            assertFalse(hud.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, attachment)), "no STORAGE usage: graphics");
            assertFalse(hud.usesCompute(new ImageDesc(W, H, VK_FORMAT_B8G8R8A8_SRGB, storage | attachment)), "sRGB: graphics");
        }
        try (HudOverlayNode byDefault = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION)) {
            assertEquals(!ctx.info().isCpu(), byDefault.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, storage)),
                    "by default only a GPU takes the compute path (" + ctx.info().type() + " device)");
        }
        byte[] background = render(null, 0, curves);
        byte[] compute = render(background, storage, curves);
        byte[] graphics = render(background, attachment, curves);
        int differing = 0, drawn = 0;
        for (int i = 0; i < compute.length; i++) {
            int d = Math.abs((compute[i] & 0xff) - (graphics[i] & 0xff));
            if (d > 1) {
                int p = i / 4;
                fail("byte " + i + " (pixel " + p % W + "," + p / W + " channel " + i % 4 + "): compute " + (compute[i] & 0xff)
                        + " vs graphics " + (graphics[i] & 0xff) + " over " + (background[i] & 0xff));
            }
            differing += d;
            drawn += graphics[i] != background[i] ? 1 : 0;
        }
        assertTrue(drawn > W * H / 10, "the HUD changed " + drawn + " bytes of the background: too few to compare");
        assertTrue(differing <= drawn / curves.drawnPerRoundedByte(), differing + " bytes differ by one step out of " + drawn + " drawn");
    }

    /** The background alone ({@code reference} null), or the HUD over it after {@link #FRAMES} frames of plot history. */
    private byte[] render(byte[] reference, int usage, Curves curves) {
        var ctx = Engine.of(runtime).context();
        try (FrameCommands loop = runtime.frameCommands();
             HudOverlayNode hud = new HudOverlayNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION, true);
             ExposurePlotNode history = new ExposurePlotNode(ctx, Engine.of(runtime).compiler(), Engine.of(runtime).pipelineCache());
             TrackedBuffer pixels = new TrackedBuffer(ctx, "test.background", 4L * W * H, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD);
             TrackedBuffer normalized = new TrackedBuffer(ctx, "test.normalized", ExposureShaderLayout.NORMALIZED_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             TrackedBuffer exposure = new TrackedBuffer(ctx, "test.exposure", ExposureShaderLayout.EXPOSURE_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             TrackedBuffer out = new TrackedBuffer(ctx, "test.pixels", 4L * W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            SplittableRandom r = new SplittableRandom(11);
            for (int y = 0; y < H; y++) {
                for (int x = 0; x < W; x++) {   // a gradient with noise: every blend sees a different destination
                    int v = (x * 255 / W) | (y * 255 / H) << 8 | r.nextInt(256) << 16 | (128 + r.nextInt(128)) << 24;
                    MemoryUtil.memPutInt(pixels.mappedAddress() + 4L * (y * W + x), v);
                }
            }
            pixels.flush(0, pixels.size());
            for (int b = 0; b < 256; b++) {   // a skewed histogram: bars of every height, some over the 10 % cap
                MemoryUtil.memPutFloat(normalized.mappedAddress() + 4L * b, (float) (Math.pow(r.nextDouble(), 6) * 0.15));
            }
            normalized.flush(0, normalized.size());
            List<String> lines = LINES;
            for (int f = 0; f < (reference == null ? 1 : FRAMES); f++) {
                float[] rec = new float[ExposureShaderLayout.EXPOSURE_FLOATS];
                rec[ExposureShaderLayout.EV] = curves.ev(f);
                rec[ExposureShaderLayout.TARGET_EV] = curves.target(f);
                rec[ExposureShaderLayout.VALID] = 1;
                rec[ExposureShaderLayout.LOW_EV] = -2.3f;
                rec[ExposureShaderLayout.HIGH_EV] = 11.7f;
                MemoryUtil.memByteBuffer(exposure.mappedAddress(), (int) exposure.size()).asFloatBuffer().put(0, rec);
                exposure.flush(0, exposure.size());
                Frame frame = runtime.beginFrame();
                VkCommandBuffer cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                BufferHandle src = g.importBuffer("background", pixels, null);
                record Upload(BufferHandle src, ImageHandle dst) {
                }
                ImageHandle target = g.addPass("upload", PassKind.TRANSFER, b -> new Upload(b.read(src, Access.TRANSFER_SRC),
                        b.write(b.create("target", new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, reference == null
                                ? VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT : usage)), Access.TRANSFER_DST)),
                        (io, c) -> copy(c.cmd(), c.buffer(io.src()).handle(), c.image(io.dst()).handle(), true)).dst();
                ImageHandle drawn = target;
                if (reference != null) {
                    BufferHandle exp = g.importBuffer("exposure", exposure, null);
                    ExposurePlot.View view = history.add(g, exp, 0.35f * f);   // 14 s: segments ~10 px long, the oldest clipped at the window
                    drawn = hud.add(g, target, lines, new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null), exp,
                            MIN_EV, MAX_EV, 255 / (MAX_EV - MIN_EV)), view);
                }
                BufferHandle dst = g.importBuffer("pixels", out, Access.HOST_READ);
                record Read(ImageHandle src, BufferHandle dst) {
                }
                ImageHandle last = drawn;
                g.addPass("read", PassKind.TRANSFER, b -> {
                    b.sideEffect();
                    return new Read(b.read(last, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
                }, (io, c) -> copy(c.cmd(), c.buffer(io.dst()).handle(), c.image(io.src()).handle(), false));
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
                ctx.waitIdle();   // the host rewrites the exposure record before the next frame
            }
            out.invalidate(0, out.size());
            byte[] bytes = new byte[(int) out.size()];
            MemoryUtil.memByteBuffer(out.mappedAddress(), bytes.length).get(bytes);
            return bytes;
        }
    }

    private void copy(VkCommandBuffer cmd, long buffer, long image, boolean toImage) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
            region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
            region.imageExtent().set(W, H, 1);
            if (toImage) {
                vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
            } else {
                vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, region);
            }
        }
    }
}

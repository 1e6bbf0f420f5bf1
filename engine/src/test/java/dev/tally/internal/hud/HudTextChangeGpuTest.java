package dev.tally.internal.hud;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.hud.HudOverlay;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lwjgl.system.MemoryUtil;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.lwjgl.vulkan.VK10.*;

/**
 * One overlay drawing text that changes at some frames and not at others, on lavapipe, by both paths: every frame shows
 * its own text, pixel for pixel as a fresh overlay draws that text in its first frame, though the glyphs are built only
 * when the text changed and bound again from their slot until it does.
 */
class HudTextChangeGpuTest extends GpuTestBase {
    private static final int W = 96, H = 54;
    private static final String[] FIGURES = {"EV 1.5", "EV 1.5", "EV 2.5", "EV 2.5", "EV 2.5", "EV 1.5", "EV 9.0 wide", "EV 9.0 wide", "EV 1.5"};

    @ParameterizedTest(name = "compute path: {0}")
    @ValueSource(booleans = {false, true})
    void everyFrameShowsItsOwnText(boolean compute) {
        StringBuilder figure = new StringBuilder();
        List<CharSequence> lines = List.of("Tally", figure);
        List<byte[]> frames;
        try (HudOverlayNode hud = overlay(compute)) {
            frames = render(hud, compute, FIGURES.length, f -> {
                figure.setLength(0);
                figure.append(FIGURES[f]);
            }, lines);
        }
        Map<String, byte[]> fresh = new HashMap<>();
        for (String text : FIGURES) {
            if (!fresh.containsKey(text)) {
                try (HudOverlayNode hud = overlay(compute)) {
                    fresh.put(text, render(hud, compute, 1, f -> { }, List.of("Tally", text)).get(0));
                }
            }
        }
        assertTrue(!java.util.Arrays.equals(fresh.get("EV 1.5"), fresh.get("EV 2.5")), "the texts draw differently: the comparison can fail");
        for (int f = 0; f < FIGURES.length; f++) {
            byte[] expected = fresh.get(FIGURES[f]), actual = frames.get(f);
            for (int i = 0; i < expected.length; i++) {
                if (expected[i] != actual[i]) {
                    int p = i / 4;
                    fail("frame " + f + " ('" + FIGURES[f] + "'): pixel " + p % W + "," + p / W + " channel " + i % 4 + " is " + (actual[i] & 0xff)
                            + ", a fresh overlay draws " + (expected[i] & 0xff));
                }
            }
        }
    }

    private HudOverlayNode overlay(boolean compute) {
        Engine e = Engine.of(runtime);
        HudOverlayNode hud = new HudOverlayNode(e.context(), e.compiler(), e.pipelineCache(), HudOverlayNode.DEFAULT_TEXT_FRACTION, compute);
        int usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | (compute ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
        assertEquals(compute, hud.usesCompute(new ImageDesc(W, H, VK_FORMAT_R8G8B8A8_UNORM, usage)), "the path under test draws");
        return hud;
    }

    /** {@code frames} frames of {@code hud} over black, {@code before} run ahead of each; each frame's pixels. */
    private List<byte[]> render(HudOverlayNode hud, boolean compute, int frames, java.util.function.IntConsumer before, List<CharSequence> lines) {
        var ctx = Engine.of(runtime).context();
        int usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | (compute ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
        List<byte[]> out = new ArrayList<>();
        try (FrameCommands loop = runtime.frameCommands();
             TrackedImage image = TrackedImage.create(ctx, "test.target", W, H, VK_FORMAT_R8G8B8A8_UNORM, usage);
             TrackedBuffer normalized = zeroed("test.normalized", ExposureShaderLayout.NORMALIZED_BYTES);
             TrackedBuffer exposure = zeroed("test.exposure", ExposureShaderLayout.EXPOSURE_BYTES);
             TrackedBuffer host = new TrackedBuffer(ctx, "test.pixels", 4L * W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            for (int f = 0; f < frames; f++) {
                before.accept(f);
                Frame frame = runtime.beginFrame();
                var cmd = loop.begin(frame);
                FrameGraph g = frame.graph();
                ImageHandle target = g.importImage("target", image, null);
                ImageHandle cleared = g.addPass("clear", PassKind.GRAPHICS, b -> b.colorAttachment(target, new float[]{0, 0, 0, 1}), (x, c) -> {
                });
                HudOverlay.HistogramView view = new HudOverlay.HistogramView(g.importBuffer("normalized", normalized, null),
                        g.importBuffer("exposure", exposure, null), -10, 20, 255 / 30f);
                ImageHandle drawn = hud.add(g, cleared, lines, view, null);
                HudOverlayGpuTest.copyToHost(g, drawn, host, W, H);
                frame.record(cmd);
                loop.end(cmd);
                frame.submit(cmd);
                ctx.waitIdle();
                host.invalidate(0, host.size());
                byte[] rgba = new byte[(int) host.size()];
                MemoryUtil.memByteBuffer(host.mappedAddress(), rgba.length).get(rgba);
                out.add(rgba);
            }
        }
        return out;
    }

    private TrackedBuffer zeroed(String name, long size) {
        TrackedBuffer b = new TrackedBuffer(Engine.of(runtime).context(), name, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
        MemoryUtil.memSet(b.mappedAddress(), 0, size);
        b.flush(0, size);
        return b;
    }
}

package dev.tally.demo.app;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R16G16B16A16_SFLOAT;

/**
 * The scene's dispatch covers the whole image whatever its size: transients are poisoned with NaN before the pass,
 * so a pixel the pass leaves unwritten reads back as NaN. Sizes one pixel past whole workgroups and smaller than
 * one; lavapipe, validation on.
 */
class SceneCoverageTest {
    @Test
    void everyPixelIsWrittenAtSizesThatAreNotWholeWorkgroups(@TempDir Path cache) {
        int g = SceneRenderer.GROUP;
        int[][] sizes = {{2 * g + 1, g + 1}, {g - 3, 5}, {3 * g + 7, 2 * g - 1}};
        Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache, dev.tally.demo.CommonOptions.LIVE_SHADERS)), List.of());
        try (SceneRenderer scene = new SceneRenderer(tally, VK_FORMAT_R16G16B16A16_SFLOAT);
             FrameCommands commands = tally.frameCommands()) {
            Engine.of(tally).graphs().debugPoisonTransients(true);
            for (int[] size : sizes) {
                int w = size[0], h = size[1];
                float[] rgba = render(tally, commands, scene, w, h);
                assertEquals(4 * w * h, rgba.length);
                for (int i = 0; i < rgba.length; i++) {
                    int pixel = i / 4;
                    assertTrue(Float.isFinite(rgba[i]) && rgba[i] >= 0, "pixel " + pixel % w + ", " + pixel / w + " of " + w + "x" + h
                            + " channel " + i % 4 + " reads " + rgba[i] + ": the pass did not write it");
                }
            }
        } finally {
            Engine.of(tally).context().waitIdle();
            var log = Engine.of(tally).context().validationLog();
            tally.close();
            assertEquals(0, log.total(), () -> "validation messages: " + log.messages());
        }
    }

    /** Renders frames until the ring delivers one: the image as RGBA floats, row by row. */
    private static float[] render(Tally tally, FrameCommands commands, SceneRenderer scene, int w, int h) {
        try (ReadbackRing ring = tally.readback("scene/pixels", 8L * w * h)) {
            for (int f = 0; f < 8; f++) {
                Frame frame = tally.beginFrame();
                var cmd = commands.begin(frame);
                FrameGraph graph = frame.graph();
                ImageHandle hdr = scene.add(graph, w, h, 5.0f);
                ring.capture(graph, List.of(new ReadbackRing.ImageRegion(hdr, 0, 0, w, h)));
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            Sample s = ring.latest().orElseThrow(() -> new AssertionError("no readback delivered in 8 frames"));
            return s.floats();
        }
    }
}

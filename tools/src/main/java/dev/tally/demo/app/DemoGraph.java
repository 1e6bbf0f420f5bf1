package dev.tally.demo.app;
import dev.tally.vk.GpuImage;



import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.demo.graphcheck.CheckedGraph;
import dev.tally.demo.graphcheck.HostCopies;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.readback.ReadbackRing;

import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The demo's frame graph for graphcheck, built with the public API at a small size: scene -> auto-exposure
 * -> tonemap -> exposure plot and HUD (fixed text, so pixels depend only on the frame) -> readback ring,
 * with the output image, the exposure record and the normalized histogram copied to the host each frame.
 */
public final class DemoGraph implements CheckedGraph {
    private static final float DT = 1 / 60f;
    private final int width;
    private final int height;

    public DemoGraph(int width, int height) {
        this.width = width;
        this.height = height;
    }

    @Override
    public String name() {
        return String.format(Locale.ROOT, "demo %dx%d", width, height);
    }

    @Override
    public Run start(Tally tally) {
        return new DemoRun(tally);
    }

    private final class DemoRun implements Run {
        private final SceneRenderer scene;
        private final AutoExposure exposure;
        private final Tonemapper tonemap;
        private final HudOverlay hud;
        private final ExposurePlot plot;
        private final ReadbackRing ring;
        private final GpuImage output;

        DemoRun(Tally tally) {
            scene = new SceneRenderer(tally, VK_FORMAT_R16G16B16A16_SFLOAT);
            exposure = tally.autoExposure("");
            tonemap = tally.tonemapper();
            hud = tally.hud();
            plot = tally.exposurePlot();
            ring = tally.readback("readback", DemoApp.READBACK_BYTES);
            output = tally.createImage("output", width, height, DemoApp.OFFSCREEN_FORMAT,
                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        }

        @Override
        public void declare(Frame frame, int frameIndex, HostCopies copies) {
            FrameGraph g = frame.graph();
            float time = 2 + frameIndex * DT;
            ImageHandle hdr = scene.add(g, width, height, time);
            AutoExposure.Result ae = exposure.add(g, hdr, DT);
            ImageHandle out = tonemap.add(g, hdr, ae.exposure(), g.importImage("output", output, null));
            ExposurePlot.View plotted = plot.add(g, ae.exposure(), time);
            ExposureSettings es = exposure.settings();
            out = hud.add(g, out, List.of("graphcheck", "frame " + frameIndex),
                    new HudOverlay.HistogramView(ae.normalized(), ae.exposure(), es.minEV(), es.maxEV(), es.binsPerEV()), plotted);
            ring.capture(g, List.of(ReadbackRing.Region.of(ae.total(), 4),
                    ReadbackRing.Region.of(ae.exposure(), ExposureShaderLayout.EXPOSURE_BYTES),
                    ReadbackRing.Region.of(ae.normalized(), ExposureShaderLayout.NORMALIZED_BYTES)));
            copies.copy(g, "output", out);
            copies.copy(g, "exposure", ae.exposure());
            copies.copy(g, "normalized", ae.normalized());
        }

        @Override
        public void close() {
            new ShutdownSteps().closing(output, ring, plot, hud, tonemap, exposure, scene).rethrow();
        }
    }
}

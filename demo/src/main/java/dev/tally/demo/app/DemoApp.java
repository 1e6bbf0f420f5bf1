package dev.tally.demo.app;

import dev.tally.vk.Device;
import dev.tally.vk.GpuImage;



import dev.tally.Frame;
import dev.tally.FrameBatch;
import dev.tally.FrameCommands;
import dev.tally.LaneCommands;
import dev.tally.graph.AsyncMode;
import dev.tally.Tally;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Metering;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.demo.present.Swapchain;
import dev.tally.demo.present.Window;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;
import dev.tally.readback.Subscription;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

/**
 * The demo's frame loop, on Tally's public API only: scene -> auto-exposure (histogram, GPU total,
 * exposure with normalization) -> tonemap -> HUD -> readback ring -> present (window) or an offscreen image
 * (headless), one frame graph per frame. Input, live reload, HUD text, screenshots and what happens
 * between frames (the {@link FramePolicy}) are classes of their own.
 */
public final class DemoApp implements AutoCloseable {
    /**
     * Readback layout (as floats): total (1 float), the exposure record, the normalized histogram, the probe's texel
     * (RGBA, decoded from the HDR format: at most 16 bytes raw).
     */
    static final int READBACK_EXPOSURE = 1;
    static final int READBACK_HISTOGRAM = 1 + ExposureShaderLayout.EXPOSURE_FLOATS;
    static final int READBACK_PROBE = READBACK_HISTOGRAM + ExposureShaderLayout.NORMALIZED_FLOATS;
    static final long READBACK_BYTES = 4L * READBACK_PROBE + 16;
    static final int OFFSCREEN_FORMAT = VK_FORMAT_R8G8B8A8_UNORM;

    private final Tally tally;
    private final Device gpu;
    private final DemoSettings settings;
    private final Window window;
    private final PrintStream log;
    private final FramePolicy policy;
    private final ExposureRange exposureRange = new ExposureRange(READBACK_EXPOSURE);
    // Not final: a constructor that fails half-way releases the ones it made (see the constructor and close).
    private FrameCommands commands;
    /** With async.mode on or auto: frames are recorded in batches, one per run of passes on a queue. */
    private LaneCommands lanes;
    private SceneRenderer scene;
    private AutoExposure exposure;
    private Tonemapper tonemap;
    private HudOverlay hud;
    private final HudLines hudLines = new HudLines();
    /** Seconds of the frame clock between rebuilds of the HUD's text (hud.textRefreshMs). */
    private final double hudTextRefresh;
    private ExposurePlot plot;
    private Filmstrip filmstrip;
    private ReadbackRing ring;
    /** What the frame's capture copies, refilled each frame: the pixel total, the exposure record, the histogram, the probed texel. */
    private ReadbackRing.SourceList captured;
    private LuminanceProbe probe;
    private Subscription probeSubscription;
    private final float[] readbackFloats = new float[READBACK_PROBE + 4];
    private final LatestReadback latest = new LatestReadback(readbackFloats);
    private final StatusLine statusLine = new StatusLine();
    private LiveReload reload;
    private DemoKeys keys;
    private GpuImage mask;
    private long maskSampler;
    private Swapchain swapchain;
    private GpuImage offscreen;
    private Screenshot screenshot;

    public DemoApp(Tally tally, DemoSettings settings, Window window, PrintStream log, FramePolicy policy) {
        this.tally = tally;
        this.gpu = tally.device();
        this.settings = settings;
        this.window = window;
        this.log = log;
        this.policy = policy;
        this.hudTextRefresh = tally.config().integer("hud.textRefreshMs") / 1000.0;
        try {
            create();
        } catch (RuntimeException e) {
            // Out of memory or a lost device while building: release what exists, report the first error.
            try {
                close();
            } catch (RuntimeException second) {
                e.addSuppressed(second);
            }
            throw e;
        }
    }

    private void create() {
        commands = tally.frameCommands();
        if (tally.asyncLane().mode() != AsyncMode.OFF) {
            lanes = tally.laneCommands();
        }
        scene = new SceneRenderer(tally,
                settings.hdrFormat() == null ? SceneRenderer.preferredHdrFormat(gpu) : SceneRenderer.HDR_FORMATS.get(settings.hdrFormat()));
        ExposureSettings es = ExposureSettings.fromConfig(tally.config()).withMetering(settings.metering());
        exposure = tally.autoExposure("", es);
        if (settings.metering() == Metering.MASK) {
            mask = MaskImage.create(tally);
            maskSampler = MaskImage.sampler(gpu);
            exposure.mask(mask, maskSampler);
        }
        tonemap = tally.tonemapper();
        hud = tally.hud();
        plot = tally.exposurePlot();
        ring = tally.readback("readback", READBACK_BYTES);
        captured = ring.sourceList();
        probe = new LuminanceProbe(window);
        probeSubscription = ring.onSample(readbackFloats, d -> {
            latest.delivered(d);
            probe.delivered(readbackFloats, READBACK_PROBE, d);
        });
        keys = new DemoKeys(window, settings.hud());
        if (window != null) {
            reload = new LiveReload(gpu, tally.liveShaderDirectory(),
                    List.of(scene::reload, exposure::reload, tonemap::reload, hud::reload, plot::reload, tally::reloadShaders), log);
            swapchain = new Swapchain(tally, window.createSurface(gpu.instance()), settings.width(), settings.height(), settings.vsync());
        } else {
            resizeOffscreen(settings.width(), settings.height());
        }
    }

    private void resizeOffscreen(int w, int h) {
        if (offscreen != null) {
            offscreen.close();   // destruction deferred past the frames that used it
        }
        // STORAGE too, so that the tonemap runs as a compute pass (far faster than a fullscreen draw on GPUs
        // with few graphics units); the HUD still draws on it as a colour attachment.
        offscreen = tally.createImage("output", w, h, OFFSCREEN_FORMAT,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    }

    /**
     * What the run produced, for the summary line and the stats file. {@code lastFrameNumber}: the number of the
     * last frame begun (frames given up on an out-of-date swapchain keep their numbers, so it can exceed frames - 1).
     */
    public record Summary(long frames, long lastFrameNumber, double seconds, ReadbackStats readback, Sample lastSample, float normalizedHistogramSum, float ev,
                          long shaderReloads, Pacing pacing, String readbackMode, float probeLuminance, Double probeEv) {
    }

    /** Times the frame loop blocked for the GPU or the display: Tally's frame-in-flight waits and the swapchain's blocked acquires. */
    public record Pacing(long count, double micros) {
    }

    /** In a window, applies edits to {@code file} while running (see {@link LiveReload}). */
    public void watchConfig(Path file, List<String> overrides) {
        if (reload != null && file != null) {
            reload.watchConfig(file, overrides);
        }
    }

    /**
     * Runs until the frames are rendered, the window closes or {@code stop} says so (SIGINT, SIGTERM).
     * A headless run asked for a screenshot that stops early renders one final frame and captures it, so
     * the screenshot is always the last rendered frame; in a window an early stop leaves none (the
     * swapchain image was already presented). {@code afterFrame} hears each submitted frame's number.
     */
    public Summary run(BooleanSupplier stop, LongConsumer afterFrame) {
        return run(stop, afterFrame, null);
    }

    /** A run of the frame loop as {@link #run} makes it, a frame per {@link Run#step}: for a caller that drives the frames (a benchmark). */
    public Run start(BooleanSupplier stop, LongConsumer afterFrame) {
        return new Run(stop, afterFrame, null);
    }

    /** As {@link #run(BooleanSupplier, LongConsumer)}, each frame's phases timed into {@code phases} when not null (a benchmark's breakdown). */
    public Summary run(BooleanSupplier stop, LongConsumer afterFrame, FramePhases phases) {
        Run run = new Run(stop, afterFrame, phases);
        while (run.step()) {
            // A frame per step, until the run is over.
        }
        return run.finish();
    }

    /** One run of the frame loop: what it keeps from frame to frame. {@link #step} renders the next frame; {@link #finish} ends it. */
    public final class Run {
        private final BooleanSupplier stop;
        private final LongConsumer afterFrame;
        private long target;
        private final double dt;
        /** Headless without --frames: ten seconds of scene time, at any frame rate (with wall-clock time the last frame is the one whose next step would pass ten seconds). */
        private final boolean tenSeconds;
        private final long start;
        private long lastStatus;
        private long lastFrameNanos;
        private double cpuMillis;
        private long rendered;
        private float sceneTime;
        /** The HUD's text as last rebuilt, and when it is rebuilt (hud.textRefreshMs of the frame clock). */
        private List<StringBuilder> hudText;
        private final RefreshClock hudTextClock = new RefreshClock(hudTextRefresh);
        private final Output output = new Output();
        private final AcquireFailures acquireFailures = new AcquireFailures();
        private boolean over;
        /** Null but in a benchmark's breakdown run: then each phase of the step is timed. */
        private final FramePhases phases;

        private Run(BooleanSupplier stop, LongConsumer afterFrame, FramePhases phases) {
            this.phases = phases;
            this.stop = stop;
            this.afterFrame = afterFrame;
            target = settings.frames();
            dt = settings.fixedDt() > 0 ? settings.fixedDt() : 1.0 / 60;
            tenSeconds = target < 0 && window == null && settings.fixedDt() <= 0;
            if (target < 0 && window == null && !tenSeconds) {
                target = Math.max(1, Math.round(10.0 / dt));
            }
            start = System.nanoTime();
            lastStatus = start;
            lastFrameNanos = start;
        }

        private boolean finished() {
            over = true;
            return false;
        }

        /** Renders the next frame, or tries to (a minimized window, an out-of-date swapchain); false once the run is over. */
        public boolean step() {
            if (over || !(target < 0 || rendered < target)) {
                return finished();
            }
            boolean stopping = stop.getAsBoolean();
            if (stopping && !(window == null && settings.screenshot() != null && screenshot == null)) {
                return finished();
            }
            policy.beforeFrame(rendered, output);
            int image = -1;
            if (window != null) {
                window.poll();
                if (window.shouldClose()) {
                    return finished();
                }
                if (!ensureSwapchain()) {
                    return true;   // minimized: nothing to draw, try again after the next events
                }
                reload.poll(exposure);
            }
            long frameStart = System.nanoTime();
            if (phases != null) {
                phases.frameStarted();
            }
            Frame frame = tally.beginFrame();
            if (phases != null) {
                phases.ended(FramePhases.Phase.BEGIN);
            }
            VkCommandBuffer cmd = lanes == null ? commands.begin(frame) : null;
            if (phases != null) {
                phases.ended(FramePhases.Phase.COMMANDS);
            }
            if (swapchain != null) {
                image = swapchain.acquire(frame.number());
                if (image < 0) {
                    if (cmd != null) {
                        commands.end(cmd);
                    }
                    frame.abandon();   // out of date: recreate the swapchain and try again
                    acquireFailures.failed(System.nanoTime(), swapchain.recreations(), width(), height());
                    return true;
                }
                acquireFailures.acquired();
            }
            float frameDt = settings.fixedDt() > 0 ? (float) dt : (float) Math.min(0.1, (frameStart - lastFrameNanos) / 1e9);
            lastFrameNanos = frameStart;
            sceneTime = settings.fixedDt() > 0 ? (float) (rendered * dt) : sceneTime + frameDt;
            if (keys.takeReset()) {
                exposure.reset();
            }
            exposureRange.observe(latest);
            boolean last = stopping || (target >= 0 && rendered == target - 1) || (tenSeconds && sceneTime + frameDt >= 10);
            FrameGraph g = frame.graph();
            GpuImage targetImage = swapchain != null ? swapchain.image(image) : offscreen;
            ImageHandle hdr = scene.add(g, targetImage.width(), targetImage.height(), sceneTime);
            if (phases != null) {
                phases.ended(FramePhases.Phase.SCENE);
            }
            AutoExposure.Result ae = exposure.add(g, hdr, frameDt);
            if (phases != null) {
                phases.ended(FramePhases.Phase.EXPOSURE);
            }
            ImageHandle out = swapchain != null ? g.importSwapchainImage("swapchain", targetImage) : g.importImage("output", targetImage, null);
            out = tonemap.add(g, hdr, ae.exposure(), out);
            if (phases != null) {
                phases.ended(FramePhases.Phase.TONEMAP);
            }
            probe.locate(g, hdr);
            if (phases != null) {
                phases.ended(FramePhases.Phase.PROBE);
            }
            if (filmstrip != null) {
                filmstrip.capture(g, rendered, sceneTime, out, targetImage, ae.exposure());
            }
            ExposurePlot.View plotted = plot.add(g, ae.exposure(), sceneTime);   // every frame: the plot's history stays continuous
            if (phases != null) {
                phases.ended(FramePhases.Phase.PLOT);
            }
            if (keys.hudVisible()) {
                ExposureSettings es = exposure.settings();
                if (hudTextClock.due(settings.fixedDt() > 0 ? rendered * dt : (frameStart - start) / 1e9, last)) {
                    hudText = hudLines.of(gpu.name(), rendered, settings.fixedDt(), cpuMillis, tally.passStats(), ring, latest,
                            READBACK_EXPOSURE, reload == null ? null : reload.error(), probe.hudLine());
                }
                out = hud.add(g, out, hudText, ae, es, plotted);
            }
            if (phases != null) {
                phases.ended(FramePhases.Phase.HUD);
            }
            ring.capture(g, captured.clear().buffer(ae.total(), 4).buffer(ae.exposure(), ExposureShaderLayout.EXPOSURE_BYTES)
                    .buffer(ae.normalized(), ExposureShaderLayout.NORMALIZED_BYTES)
                    .image(hdr, probe.texelX(), probe.texelY(), 1, 1));
            if (phases != null) {
                phases.ended(FramePhases.Phase.CAPTURE);
            }
            if (last && settings.screenshot() != null && swapchain == null) {
                screenshot = Screenshot.capture(tally, g, out);
            }
            Screenshot keyShot = swapchain != null && keys.takeScreenshot() ? Screenshot.capture(tally, g, out) : null;
            if (lanes != null) {
                List<FrameBatch> batches = frame.recordBatches(lanes);
                if (swapchain != null) {
                    frame.submit(batches, swapchain.acquireSemaphore(frame.number()), VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                            swapchain.renderFinished(image));
                    swapchain.present(image);
                } else {
                    frame.submit(batches);
                }
            } else {
                frame.record(cmd);
                commands.end(cmd);
                if (phases != null) {
                    phases.ended(FramePhases.Phase.RECORD);
                }
                if (swapchain != null) {
                    frame.submit(cmd, swapchain.acquireSemaphore(frame.number()), VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                            swapchain.renderFinished(image));
                    swapchain.present(image);
                } else {
                    frame.submit(cmd);
                }
            }
            if (phases != null) {
                phases.ended(FramePhases.Phase.SUBMIT);
            }
            if (keyShot != null) {
                writeKeyScreenshot(keyShot, frame.number());
            }
            cpuMillis = (System.nanoTime() - frameStart) / 1e6;
            afterFrame.accept(rendered);
            rendered++;
            long now = System.nanoTime();
            if (now - lastStatus >= 1_000_000_000L) {
                statusLine.print(log, rendered, (now - start) / 1e9, latest, READBACK_EXPOSURE + ExposureShaderLayout.EV);
                if (window != null) {
                    WindowTitle.show(window, rendered, (now - start) / 1e9, ring.latest(), READBACK_EXPOSURE);
                }
                lastStatus = now;
            }
            if (stopping || (tenSeconds && last)) {
                return finished();   // that was the final frame, rendered for the screenshot
            }
            return true;
        }

        /** Ends the run: waits for the GPU, then sums the run up. */
        public Summary finish() {
            gpu.waitIdle();
            double seconds = (System.nanoTime() - start) / 1e9;
            Sample s = ring.latest().orElse(null);
            exposureRange.observe(s);
            // The normalized histogram's bins add up to 1 (the pixel total is the reduction's, floatAt(0)).
            float sum = 0;
            float ev = Float.NaN;
            if (s != null) {
                for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
                    sum += s.floatAt(READBACK_HISTOGRAM + i);
                }
                ev = s.floatAt(READBACK_EXPOSURE + ExposureShaderLayout.EV);
            }
            return new Summary(rendered, tally.currentFrame() == null ? -1 : tally.currentFrame().number(), seconds, ring.stats(), s, sum, ev, reload == null ? 0 : reload.reloads(),
                    pacing(), ring.mode().name().toLowerCase(java.util.Locale.ROOT), probe.luminance(),
                    Float.isNaN(probe.luminance()) ? null : probe.ev());
        }
    }

    private Pacing pacing() {
        long count = tally.diagnostics().pacingWaits();
        double micros = tally.diagnostics().pacingWaitMicros();
        return swapchain == null ? new Pacing(count, micros) : new Pacing(count + swapchain.acquireWaits(), micros + swapchain.acquireWaitMicros());
    }

    /** The output as a {@link FramePolicy} sees it. */
    private final class Output implements FramePolicy.Output {
        @Override
        public boolean windowed() {
            return window != null;
        }

        @Override
        public int requestedWidth() {
            return settings.width();
        }

        @Override
        public int requestedHeight() {
            return settings.height();
        }

        @Override
        public void resize(int width, int height) {
            if (window != null) {
                window.setSize(width, height);
            } else {
                resizeOffscreen(width, height);
            }
        }

        @Override
        public void iconify() {
            if (window != null) {
                window.iconify();
            }
        }

        @Override
        public void restore() {
            if (window != null) {
                window.restore();
            }
        }

        @Override
        public void requestClose() {
            if (window != null) {
                window.requestClose();
            }
        }
    }

    /** Recreates the swapchain when it is out of date or the window size changed; false while minimized. */
    private boolean ensureSwapchain() {
        int[] fb = window.framebufferSize();
        if (fb[0] == 0 || fb[1] == 0) {
            sleep(10);
            return false;
        }
        if (swapchain.stale() || fb[0] != swapchain.width() || fb[1] != swapchain.height()) {
            if (!swapchain.create(fb[0], fb[1])) {
                sleep(10);
                return false;
            }
        }
        return true;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** F12: the frame just submitted goes to tally-screenshot-FRAME.png in the directory ./tally was run from. */
    private void writeKeyScreenshot(Screenshot shot, long frame) {
        Path file = dev.tally.demo.CallerPaths.resolve(Path.of(String.format(java.util.Locale.ROOT, "tally-screenshot-%06d.png", frame)));
        try (shot) {
            shot.write(file);
            log.println("wrote " + file.toAbsolutePath());
        } catch (RuntimeException e) {
            log.println("screenshot not written: " + e.getMessage());
        }
    }

    /** Headless: takes the filmstrip's frames (before the HUD) as the run passes them. */
    public void filmstrip(Filmstrip strip) {
        filmstrip = strip;
    }

    /** The applied and metered EV's range over the run so far. */
    public ExposureRange exposureRange() {
        return exposureRange;
    }

    /** Writes the screenshot taken in the last frame, if any. */
    public void writeScreenshot(Path file) {
        if (screenshot != null) {
            screenshot.write(file);
        }
    }

    public LuminanceProbe probe() {
        return probe;
    }

    public ReadbackRing ring() {
        return ring;
    }

    public Tally tally() {
        return tally;
    }

    /** The output's size now. */
    public int width() {
        return swapchain != null ? swapchain.width() : offscreen.width();
    }

    public int height() {
        return swapchain != null ? swapchain.height() : offscreen.height();
    }

    public long swapchainRecreations() {
        return swapchain == null ? 0 : swapchain.recreations();
    }

    /**
     * Releases everything. Also after a failure (a lost device): every step runs even when one throws,
     * and the first failure is rethrown at the end.
     */
    @Override
    public void close() {
        ShutdownSteps steps = new ShutdownSteps().then(gpu::waitIdle);
        steps.closing(reload, screenshot, probeSubscription, ring, plot, hud, tonemap, exposure, scene, mask, offscreen, swapchain, commands, lanes);
        if (maskSampler != 0) {
            steps.then(() -> MaskImage.destroySampler(gpu, maskSampler));
        }
        if (window != null) {
            steps.then(gpu::waitIdle);
            steps.then(window::destroySurface);
        }
        steps.rethrow();
    }
}

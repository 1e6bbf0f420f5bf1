package dev.tally.demo.app;

import dev.tally.TallyRuntime;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.Metering;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.hud.PngWriter;
import dev.tally.present.Swapchain;
import dev.tally.present.Window;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;
import dev.tally.shader.Samplers;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.FrameLoop;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import static org.lwjgl.glfw.GLFW.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

/**
 * The demo's rendering loop: scene -> histogram -> total -> normalize -> exposure -> tonemap -> HUD ->
 * readback -> present (window) or an offscreen image (headless), all in a frame graph per frame.
 */
public final class DemoApp implements AutoCloseable {
    /** Readback layout: total (1 float), the exposure record (8 floats), the normalized histogram (257 floats). */
    static final int READBACK_EXPOSURE = 1;
    static final int READBACK_HISTOGRAM = 1 + ExposureShaderLayout.EXPOSURE_FLOATS;
    static final long READBACK_BYTES = 4L * (READBACK_HISTOGRAM + ExposureShaderLayout.NORMALIZED_FLOATS);
    static final int OFFSCREEN_FORMAT = VK_FORMAT_R8G8B8A8_UNORM;

    private final TallyRuntime rt;
    private final VulkanContext ctx;
    private final DemoSettings settings;
    private final Window window;
    private final PrintStream log;
    // Not final: a constructor that fails half-way releases the ones it made (see the constructor and close).
    private GraphRuntime graphs;
    private FrameLoop loop;
    private SceneRenderer scene;
    private AutoExposure exposure;
    private Tonemapper tonemap;
    private HudOverlay hud;
    private ExposurePlot plot;
    private final ExposureRange exposureRange = new ExposureRange(READBACK_EXPOSURE);
    private ReadbackRing ring;
    private ShaderWatcher watcher;
    private GpuImage mask;
    private long maskSampler;
    private Swapchain swapchain;
    private GpuImage offscreen;
    private GpuBuffer screenshotBuffer;
    private int width;
    private int height;
    private boolean hudVisible;
    private String shaderError;
    private long shaderReloads;

    public DemoApp(TallyRuntime rt, DemoSettings settings, Window window, PrintStream log) {
        this.rt = rt;
        this.ctx = rt.context();
        this.settings = settings;
        this.window = window;
        this.log = log;
        this.hudVisible = settings.hud();
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
        graphs = new GraphRuntime(ctx);
        loop = new FrameLoop(ctx);
        scene = new SceneRenderer(ctx, rt.compiler(), rt.pipelineCache());
        ExposureSettings es = ExposureSettings.fromConfig(rt.config()).withMetering(settings.metering());
        exposure = new AutoExposure(ctx, rt.compiler(), rt.pipelineCache(), rt.reducer(), graphs, es);
        if (settings.metering() == Metering.MASK) {
            mask = MaskImage.create(ctx);
            maskSampler = Samplers.create(ctx, false);
            exposure.mask(mask, maskSampler);
        }
        tonemap = new Tonemapper(ctx, rt.compiler(), rt.pipelineCache());
        hud = new HudOverlay(ctx, rt.compiler(), rt.pipelineCache(), rt.config().real("hud.scale"));
        plot = new ExposurePlot(ctx, rt.compiler(), rt.pipelineCache());
        ring = new ReadbackRing(ctx, "readback", rt.config().integer("readback.slots"), READBACK_BYTES);
        watcher = window != null ? ShaderWatcher.watch(rt.compiler().sources().directory()) : null;
        if (window != null) {
            swapchain = new Swapchain(ctx, window.createSurface(ctx.instance()), settings.width(), settings.height(), settings.vsync());
            width = swapchain.width();
            height = swapchain.height();
            glfwSetKeyCallback(window.handle(), (w, key, sc, action, mods) -> {
                if (key == GLFW_KEY_H && action == GLFW_PRESS) {
                    hudVisible = !hudVisible;
                }
                if (key == GLFW_KEY_R && action == GLFW_PRESS) {
                    exposure.reset();
                }
                if (key == GLFW_KEY_F12 && action == GLFW_PRESS) {
                    screenshotKey = true;
                }
                if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS) {
                    glfwSetWindowShouldClose(w, true);
                }
            });
        } else {
            resizeOffscreen(settings.width(), settings.height());
        }
    }

    private void resizeOffscreen(int w, int h) {
        if (offscreen != null) {
            offscreen.close();
        }
        offscreen = GpuImage.create(ctx, "output", w, h, OFFSCREEN_FORMAT,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        width = w;
        height = h;
    }

    /** What the run produced, for the summary line and the stats file. */
    public record Summary(long frames, double seconds, ReadbackStats readback, Sample lastSample, float histogramSum, float ev,
                          long shaderReloads) {
    }

    /**
     * Runs until {@code frames} are rendered, the window closes or {@code stop} says so (SIGINT, SIGTERM).
     * A headless run asked for a screenshot that stops early renders one final frame and captures it, so
     * the screenshot is always the last rendered frame; in a window an early stop leaves none (the
     * swapchain image was already presented).
     */
    public Summary run(BooleanSupplier stop) {
        return run(stop, f -> {
        });
    }

    /** As {@link #run(BooleanSupplier)}, calling {@code afterFrame} with each submitted frame's number. */
    public Summary run(BooleanSupplier stop, java.util.function.LongConsumer afterFrame) {
        long target = settings.frames();
        double dt = settings.fixedDt() > 0 ? settings.fixedDt() : 1.0 / 60;
        // Headless without --frames: ten seconds of scene time, at any frame rate (with wall-clock time
        // the last frame is the one whose next step would pass ten seconds).
        boolean tenSeconds = target < 0 && window == null && settings.fixedDt() <= 0;
        if (target < 0 && window == null && !tenSeconds) {
            target = Math.max(1, Math.round(10.0 / dt));
        }
        long start = System.nanoTime();
        long lastStatus = start;
        long lastFrameNanos = start;
        double cpuMillis = 0;
        long frame = 0;
        float sceneTime = 0;
        while (target < 0 || frame < target) {
            boolean stopping = stop.getAsBoolean();
            if (stopping && !(window == null && settings.screenshot() != null && screenshotBuffer == null)) {
                break;
            }
            if (window != null) {
                if (settings.resizeEvery() != null) {
                    exerciseWindow(frame, settings.resizeEvery());
                }
                if (frame == closeAt) {
                    glfwSetWindowShouldClose(window.handle(), true);
                }
                window.poll();
                if (window.shouldClose()) {
                    break;
                }
                if (!ensureSwapchain()) {
                    continue;   // minimized: nothing to draw, try again after the next events
                }
                pollShaders();
                pollConfig();
            } else if (settings.resizeEvery() != null && frame > 0 && frame % settings.resizeEvery() == 0) {
                ctx.waitIdle();
                resizeOffscreen(width == settings.width() ? Math.max(1, settings.width() / 2) : settings.width(),
                        height == settings.height() ? Math.max(1, settings.height() / 2) : settings.height());
            }
            long frameStart = System.nanoTime();
            var cmd = loop.begin();
            int image = -1;
            if (swapchain != null) {
                image = swapchain.acquire(frame);
                if (image < 0) {
                    loop.abandon();
                    continue;
                }
            }
            float frameDt = settings.fixedDt() > 0 ? (float) dt : (float) Math.min(0.1, (frameStart - lastFrameNanos) / 1e9);
            lastFrameNanos = frameStart;
            sceneTime = settings.fixedDt() > 0 ? (float) (frame * dt) : sceneTime + frameDt;
            ring.beginFrame(frame);
            exposureRange.observe(ring.latest().orElse(null));
            boolean last = stopping || (target >= 0 && frame == target - 1) || (tenSeconds && sceneTime + frameDt >= 10);
            FrameGraph g = graphs.begin();
            ImageHandle hdr = scene.add(g, width, height, sceneTime);
            AutoExposure.Result ae = exposure.add(g, hdr, width, height, frameDt);
            GpuImage targetImage = swapchain != null ? swapchain.image(image) : offscreen;
            ImageHandle out = swapchain != null ? g.importSwapchainImage("swapchain", targetImage) : g.importImage("output", targetImage, null);
            out = tonemap.add(g, hdr, ae.exposure(), out, targetImage.format());
            if (filmstrip != null) {
                filmstrip.capture(g, frame, sceneTime, out, targetImage, ae.exposure());
            }
            ExposurePlot.View plotted = plot.add(g, ae.exposure(), sceneTime);
            if (hudVisible) {
                ExposureSettings es = exposure.settings();
                out = hud.add(g, out, targetImage.format(), width, height, HudLines.of(ctx.info().name(), frame, settings.fixedDt(), cpuMillis,
                        graphs.stats(), ring, READBACK_EXPOSURE, shaderError),
                        new HudOverlay.HistogramView(ae.normalized(), ae.exposure(), es.minEV(), es.maxEV(), es.binsPerEV()), plotted);
            }
            ring.capture(g, List.of(new ReadbackRing.Region(ae.total(), 0, 4),
                    new ReadbackRing.Region(ae.exposure(), 0, ExposureShaderLayout.EXPOSURE_BYTES),
                    new ReadbackRing.Region(ae.normalized(), 0, ExposureShaderLayout.NORMALIZED_BYTES)), width, height);
            boolean keyShot = screenshotKey;
            screenshotKey = false;
            if ((last && settings.screenshot() != null) || keyShot) {
                captureScreenshot(g, out, targetImage);
            }
            var recorded = graphs.record(g, cmd);
            long value = swapchain != null
                    ? loop.submit(swapchain.acquireSemaphore(frame), VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, swapchain.renderFinished(image))
                    : loop.submit();
            graphs.submitted(recorded, value);
            ring.submitted(value);
            if (swapchain != null) {
                swapchain.present(image);
            }
            if (keyShot) {
                writeKeyScreenshot(frame);
            }
            cpuMillis = (System.nanoTime() - frameStart) / 1e6;
            afterFrame.accept(frame);
            frame++;
            long now = System.nanoTime();
            if (now - lastStatus >= 1_000_000_000L) {
                log.println(statusLine(frame, (now - start) / 1e9));
                if (window != null) {
                    WindowTitle.show(window, frame, (now - start) / 1e9, ring.latest(), READBACK_EXPOSURE);
                }
                lastStatus = now;
            }
            if (stopping || (tenSeconds && last)) {
                break;   // that was the final frame, rendered for the screenshot
            }
        }
        ctx.waitIdle();
        double seconds = (System.nanoTime() - start) / 1e9;
        Sample s = ring.latest().orElse(null);
        exposureRange.observe(s);
        float sum = 0;
        float ev = Float.NaN;
        if (s != null) {
            for (int i = 0; i < ExposureShaderLayout.BINS; i++) {
                sum += s.floatAt(READBACK_HISTOGRAM + i);
            }
            ev = s.floatAt(READBACK_EXPOSURE + ExposureShaderLayout.EV);
        }
        return new Summary(frame, seconds, ring.stats(), s, sum, ev, shaderReloads);
    }

    /**
     * Tests: every {@code k} frames the window changes size (full, half, full...), and once it is
     * minimized for a few frames and restored.
     */
    private void exerciseWindow(long frame, long k) {
        if (frame > 0 && frame % k == 0) {
            long step = frame / k;
            // full, half, 1x1, full, half, 1x1...: the smallest surface a swapchain can have, and back.
            int w = step % 3 == 1 ? Math.max(1, settings.width() / 2) : step % 3 == 2 ? 1 : settings.width();
            int h = step % 3 == 1 ? Math.max(1, settings.height() / 2) : step % 3 == 2 ? 1 : settings.height();
            window.setSize(w, h);
        }
        if (frame == k + k / 2) {
            window.iconify();
        }
        if (frame == k + k / 2 + 3) {
            window.restore();
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
            width = swapchain.width();
            height = swapchain.height();
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

    private long closeAt = -1;
    private boolean screenshotKey;

    /** F12: the frame just submitted goes to tally-screenshot-FRAME.png in the working directory. */
    private void writeKeyScreenshot(long frame) {
        Path file = Path.of(String.format(Locale.ROOT, "tally-screenshot-%06d.png", frame));
        try {
            writeScreenshot(file);
            log.println("wrote " + file.toAbsolutePath());
        } catch (RuntimeException e) {
            log.println("screenshot not written: " + e.getMessage());
        } finally {
            screenshotBuffer.close();
            screenshotBuffer = null;
        }
    }
    private Filmstrip filmstrip;

    /** Headless: takes the filmstrip's frames (before the HUD) as the run passes them. */
    public void filmstrip(Filmstrip strip) {
        filmstrip = strip;
    }

    /** Tests: the window is asked to close (as by its close button) once {@code frame} frames are done. */
    public void closeWindowAt(long frame) {
        closeAt = frame;
    }

    private ShaderWatcher configWatcher;
    private Path configFile;
    private List<String> configOverrides;

    /**
     * In a window, applies edits to {@code file} while running: exposure settings change at the next
     * frame; a bad edit keeps the previous settings and is shown on the HUD.
     */
    public void watchConfig(Path file, List<String> overrides) {
        if (window == null || file == null) {
            return;
        }
        configFile = file;
        configOverrides = List.copyOf(overrides);
        configWatcher = ShaderWatcher.watch(file.toAbsolutePath().getParent());
    }

    private void pollConfig() {
        if (configWatcher == null || !configWatcher.changed()) {
            return;
        }
        try {
            var next = dev.tally.config.Config.load(configFile, configOverrides);
            ExposureSettings es = ExposureSettings.fromConfig(next).withMetering(exposure.settings().metering());
            exposure.settings(es);
            shaderError = null;
            log.println("configuration reloaded from " + configFile);
        } catch (RuntimeException e) {
            shaderError = "config: " + e.getMessage();
            log.println("configuration not applied (previous settings kept): " + e.getMessage());
        }
    }

    /** Hot reload: rebuild pipelines when shaders/ changes; a compile error keeps the old ones and is shown. */
    private void pollShaders() {
        if (watcher == null || !watcher.changed()) {
            return;
        }
        try {
            ctx.waitIdle();
            scene.reload();
            exposure.reload();
            tonemap.reload();
            hud.reload();
            plot.reload();
            shaderError = null;
            shaderReloads++;
            log.println("shaders reloaded");
        } catch (ShaderCompileException e) {
            shaderError = e.getMessage().lines().findFirst().orElse("compile error");
            log.println("shader error (previous pipelines kept): " + e.getMessage());
        }
    }

    private String statusLine(long frame, double seconds) {
        var s = ring.latest();
        String ev = s.map(x -> String.format(Locale.ROOT, "%.2f EV", x.floatAt(READBACK_EXPOSURE + ExposureShaderLayout.EV))).orElse("-");
        String total = s.map(x -> String.format(Locale.ROOT, "%.0f (frame %d, %d late)", x.floatAt(0), x.frame(), x.lag())).orElse("-");
        return String.format(Locale.ROOT, "frame %d  %.1f fps  exposure %s  total %s", frame, frame / seconds, ev, total);
    }

    /** Copies the final image to a host buffer in the last frame (a side-effect pass). */
    private void captureScreenshot(FrameGraph g, ImageHandle image, GpuImage physical) {
        screenshotBuffer = new GpuBuffer(ctx, "screenshot", 4L * physical.width() * physical.height(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.READBACK);
        BufferHandle dst = g.importBuffer("screenshot", screenshotBuffer, Access.HOST_READ);
        record Io(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("screenshot", PassKind.TRANSFER, b -> {
            b.sideEffect();
            return new Io(b.read(image, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
        }, (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                region.imageExtent().set(physical.width(), physical.height(), 1);
                vkCmdCopyImageToBuffer(c.cmd(), c.image(h.src()).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.buffer(h.dst()).handle(), region);
            }
        });
        screenshotFormat = physical.format();
        screenshotWidth = physical.width();
        screenshotHeight = physical.height();
    }

    private int screenshotFormat;
    private int screenshotWidth;
    private int screenshotHeight;

    /** Writes the screenshot taken in the last frame (after the GPU finished), if any. */
    public void writeScreenshot(Path file) {
        if (screenshotBuffer == null) {
            return;
        }
        ctx.waitIdle();
        screenshotBuffer.invalidate(0, screenshotBuffer.size());
        byte[] rgba = new byte[(int) screenshotBuffer.size()];
        MemoryUtil.memByteBuffer(screenshotBuffer.mappedAddress(), rgba.length).get(rgba);
        if (screenshotFormat == VK_FORMAT_B8G8R8A8_UNORM || screenshotFormat == VK_FORMAT_B8G8R8A8_SRGB) {
            for (int i = 0; i < rgba.length; i += 4) {
                byte t = rgba[i];
                rgba[i] = rgba[i + 2];
                rgba[i + 2] = t;
            }
        }
        for (int i = 3; i < rgba.length; i += 4) {
            rgba[i] = (byte) 255;
        }
        PngWriter.write(file, screenshotWidth, screenshotHeight, rgba);
    }

    /** The applied and metered EV's range over the run so far. */
    public ExposureRange exposureRange() {
        return exposureRange;
    }

    public ReadbackRing ring() {
        return ring;
    }

    public GraphRuntime graphs() {
        return graphs;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public long swapchainRecreations() {
        return swapchain == null ? 0 : swapchain.recreations();
    }

    /**
     * Releases everything. Also after a failure (a lost device): every step runs even when one throws,
     * and the first failure is rethrown at the end, so closing never hides the original error behind a
     * second one nor leaks what a later step would have released.
     */
    @Override
    public void close() {
        dev.tally.vk.CloseSteps steps = new dev.tally.vk.CloseSteps().run(ctx::waitIdle);
        if (ring != null) {
            steps.run(ring::drain);
        }
        if (watcher != null) {
            steps.run(watcher::close);
        }
        if (configWatcher != null) {
            steps.run(configWatcher::close);
        }
        if (screenshotBuffer != null) {
            steps.run(screenshotBuffer::close);
        }
        if (ring != null) {
            steps.run(ring::close);
        }
        if (hud != null) {
            steps.run(hud::close);
        }
        if (plot != null) {
            steps.run(plot::close);
        }
        if (tonemap != null) {
            steps.run(tonemap::close);
        }
        if (exposure != null) {
            steps.run(exposure::close);
        }
        if (scene != null) {
            steps.run(scene::close);
        }
        if (mask != null) {
            steps.run(mask::close);
        }
        if (maskSampler != 0) {
            steps.run(() -> Samplers.destroy(ctx, maskSampler));
        }
        if (offscreen != null) {
            steps.run(offscreen::close);
        }
        if (swapchain != null) {
            steps.run(swapchain::close);
        }
        if (loop != null) {
            steps.run(loop::close);
        }
        if (graphs != null) {
            steps.run(graphs::close);
        }
        if (window != null) {
            steps.run(ctx::waitIdle);
            steps.run(window::destroySurface);
        }
        steps.finish();
    }

}

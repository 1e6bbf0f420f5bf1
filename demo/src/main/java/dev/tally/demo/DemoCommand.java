package dev.tally.demo;


import dev.tally.Tally;
import dev.tally.demo.app.DemoApp;
import dev.tally.demo.app.FramePolicy;
import dev.tally.demo.app.DemoSettings;
import dev.tally.demo.app.Filmstrip;
import dev.tally.demo.app.StatsJson;
import dev.tally.exposure.Metering;
import dev.tally.demo.present.Window;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.Callable;

/** {@code ./tally demo}: the whole pipeline in a window, or headless with a screenshot and a stats file. */
@CommandLine.Command(name = "demo", mixinStandardHelpOptions = true, description = "Run the demo: HDR scene, auto-exposure, HUD, readback ring (window or headless).")
final class DemoCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--headless", description = "render offscreen, no window (automatic when there is no display)")
    boolean headless;

    @CommandLine.Option(names = "--frames", paramLabel = "N", description = "frames to render (default: 10 s of scene time headless, until closed in a window)")
    Long frames;

    @CommandLine.Option(names = "--width", defaultValue = "1280", paramLabel = "W")
    int width;

    @CommandLine.Option(names = "--height", defaultValue = "720", paramLabel = "H")
    int height;

    @CommandLine.Option(names = "--fixed-dt", paramLabel = "SECONDS", description = "scene time per frame: reproducible runs")
    Double fixedDt;

    @CommandLine.Option(names = "--screenshot", paramLabel = "FILE", description = "write the last frame as PNG (headless: also "
            + "when SIGINT/SIGTERM stops the run early; in a window only when --frames is reached). Written whole or not at all")
    Path screenshot;

    @CommandLine.Option(names = "--stats-json", paramLabel = "FILE", description = "write statistics as JSON at exit "
            + "(also after SIGINT/SIGTERM; not when the run fails). Written whole or not at all")
    Path statsJson;

    @CommandLine.Option(names = "--filmstrip", paramLabel = "FILE", description = "write a PNG of frames across the walk out of "
            + "the tunnel into the sun, each labelled with its EV (runs headless, --fixed-dt 1/60 unless given)")
    Path filmstrip;

    @CommandLine.Option(names = "--graph-dot", paramLabel = "FILE", description = "write the frame graph as Graphviz DOT")
    Path graphDot;

    @CommandLine.Option(names = "--hdr-format", paramLabel = "FORMAT",
            description = "the scene's HDR image: b10g11r11 (4 bytes a pixel) or rgba16f (8); default: b10g11r11 where the device can store it")
    String hdrFormat;

    @CommandLine.Option(names = "--metering", paramLabel = "MODE", description = "uniform, centre or mask (default: config exposure.metering)")
    String metering;

    @CommandLine.Option(names = "--vsync", defaultValue = "on", paramLabel = "on|off")
    String vsync;

    @CommandLine.Option(names = "--hud", defaultValue = "on", paramLabel = "on|off")
    String hud;

    /** What happens between frames besides rendering: nothing for a user's run; tests inject resizes or a close. */
    FramePolicy policy = FramePolicy.NONE;

    @CommandLine.Option(names = "--readback", paramLabel = "MODE",
            description = "fixed (the ring: samples readback.slots frames late, no waits), freshest (the newest completed sample, no waits)"
                    + " or sync (read within the frame, waiting)")
    String readback;

    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() throws IOException {
        if (readback != null) {
            if (!readback.equals("fixed") && !readback.equals("sync") && !readback.equals("freshest")) {
                throw new UserInputException("--readback: '" + readback + "' is not a readback mode; expected fixed, freshest or sync");
            }
            common.overrides.add("readback.mode=" + readback);
        }
        var config = common.config(!headless);   // a window reloads edited shaders; headless runs what the build compiled
        if (metering == null) {
            metering = config.string("exposure.metering");
        }
        DemoSettings settings = validate();
        boolean windowed = !settings.headless();
        Window window = null;
        List<String> surfaceExtensions = List.of();
        if (windowed) {
            window = Window.open("Tally", settings.width(), settings.height());
            surfaceExtensions = Window.requiredExtensions();
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            // SIGINT/SIGTERM: ask the loop to stop, then let it shut down cleanly and write its files.
            stop.set(true);
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "tally-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (Tally rt = Tally.open(config, surfaceExtensions)) {
            System.err.println("demo on " + rt.device().name() + (windowed ? " in a window" : " headless") + ", "
                    + settings.width() + "x" + settings.height() + (rt.diagnostics().validationEnabled() ? ", validation on" : ""));
            DemoApp.Summary summary;
            try (DemoApp app = new DemoApp(rt, settings, window, System.err, policy)) {
                if (common.configFile != null) {
                    app.watchConfig(common.configFile, common.overrides);
                }
                try (Filmstrip strip = filmstrip == null ? null : new Filmstrip(rt, filmstrip, settings.fixedDt())) {
                    app.filmstrip(strip);
                    summary = app.run(stop::get, f -> {
                    });
                    if (strip != null && !strip.write()) {
                        System.err.println("filmstrip not written: the run stopped before its first frame");
                    }
                }
                if (settings.screenshot() != null) {
                    app.writeScreenshot(settings.screenshot());
                }
                if (settings.graphDot() != null) {
                    AtomicFiles.write(settings.graphDot(), rt.lastGraphDot().getBytes(StandardCharsets.UTF_8));
                }
                if (settings.statsJson() != null) {
                    String json = StatsJson.render(rt, app.width(), app.height(), summary, settings.metering().name().toLowerCase(Locale.ROOT), app.swapchainRecreations(),
                            app.exposureRange(), true);
                    AtomicFiles.write(settings.statsJson(), json.getBytes(StandardCharsets.UTF_8));
                }
            }
            System.out.printf(Locale.ROOT, "%d frames in %.2f s (%.1f fps); exposure %s; readback %d samples, lag %d, not ready %d, waits %d; validation: %d errors, %d warnings%n",
                    summary.frames(), summary.seconds(), summary.frames() / Math.max(1e-9, summary.seconds()),
                    Float.isNaN(summary.ev()) ? "- (no readback sample yet)" : String.format(Locale.ROOT, "%.2f EV", summary.ev()),
                    summary.readback().samples(), summary.readback().lagFrames(), summary.readback().notReady(), summary.readback().blockingWaits(),
                    rt.diagnostics().validationErrors(), rt.diagnostics().validationWarnings());
            for (Path p : new Path[]{settings.screenshot(), settings.statsJson(), settings.graphDot(), filmstrip}) {
                if (p != null && Files.exists(p)) {
                    System.out.println("wrote " + p);
                }
            }
            return rt.diagnostics().validationMessages() == 0 ? 0 : 1;
        } catch (RuntimeException | IOException e) {
            if (!stop.get()) {
                throw e;   // Main reports it
            }
            // Shutting down (SIGINT/SIGTERM): the JVM halts as soon as the hook below is released, before Main
            // could print, so report here, in Main's words, while the hook still waits.
            System.err.println("tally demo: " + Main.describe(e));
            System.err.flush();
            return Main.exitStatus(e);
        } finally {
            if (window != null) {
                window.close();
            }
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // Already shutting down: the hook is running and waits for 'finished'.
            }
        }
    }

    /** Every flag checked before anything is created, so bad input leaves no partial files. */
    private DemoSettings validate() {
        if (width < 1 || width > 16384 || height < 1 || height > 16384) {
            throw new UserInputException("--width/--height: must be in 1..16384, got " + width + "x" + height);
        }
        if (frames != null && frames < 1) {
            throw new UserInputException("--frames: must be at least 1, got " + frames);
        }
        if (fixedDt != null && !(fixedDt > 0 && fixedDt <= 1)) {
            throw new UserInputException("--fixed-dt: must be in (0, 1] seconds, got " + fixedDt);
        }
        Metering m = switch (metering) {
            case "uniform" -> Metering.UNIFORM;
            case "centre", "center" -> Metering.CENTRE;
            case "mask" -> Metering.MASK;
            default -> throw new UserInputException("--metering: expected uniform, centre or mask, got '" + metering + "'");
        };
        if (hdrFormat != null && !DemoSettings.hdrFormats().contains(hdrFormat)) {
            throw new UserInputException("--hdr-format: expected " + String.join(" or ", new java.util.TreeSet<>(DemoSettings.hdrFormats()))
                    + ", got '" + hdrFormat + "'");
        }
        boolean vs = onOff("--vsync", vsync);
        boolean hudOn = onOff("--hud", hud);
        boolean noDisplay = !Window.displayAvailable();
        boolean isHeadless = headless || noDisplay || filmstrip != null;
        if (filmstrip != null) {
            fixedDt = fixedDt != null ? fixedDt : 1.0 / 60;
            frames = frames != null ? frames : Filmstrip.framesNeeded(fixedDt);
        }
        Path shot = screenshot;
        Path stats = statsJson;
        if (isHeadless && frames == null) {
            // A headless run without --frames stops by itself and leaves its results in a default place.
            Path dir = Path.of("out");
            shot = shot != null ? shot : dir.resolve("demo-screenshot.png");
            stats = stats != null ? stats : dir.resolve("demo-stats.json");
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UserInputException("out/: cannot create the default output directory (" + e.getMessage() + ")");
            }
        }
        new OutputPaths().add("--screenshot", shot).add("--stats-json", stats).add("--graph-dot", graphDot).add("--filmstrip", filmstrip);
        return new DemoSettings(isHeadless, frames == null ? -1 : frames, width, height, fixedDt == null ? 0 : fixedDt, shot, stats,
                graphDot, m, vs, hudOn, hdrFormat);
    }

    private static boolean onOff(String flag, String v) {
        return switch (v) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new UserInputException(flag + ": expected on or off, got '" + v + "'");
        };
    }
}

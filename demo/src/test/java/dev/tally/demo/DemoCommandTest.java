package dev.tally.demo;

import dev.tally.demo.app.FramePolicy;
import dev.tally.demo.app.ResizeEveryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.tally.demo.JsonNumbers.number;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The demo end to end on lavapipe with validation: stats file, screenshots, determinism, window, bad input. */
class DemoCommandTest {
    @TempDir
    static Path cache;

    /** The demo with the test's cache directory, through the shared in-process runner. */
    private static Cli.Run run(String... args) {
        List<String> all = new ArrayList<>(List.of("demo"));
        all.addAll(Arrays.asList(args));
        all.add("--set");
        all.add("cache.dir=" + cache);
        return Cli.run(all.toArray(String[]::new));
    }

    /** As {@link #run}, with {@code policy} injected into the demo (resizes, a close), as an embedding test harness would. */
    private static Cli.Run runWith(FramePolicy policy, String... args) {
        List<String> all = new ArrayList<>(List.of("demo"));
        all.addAll(Arrays.asList(args));
        all.add("--set");
        all.add("cache.dir=" + cache);
        return Cli.run(null, () -> {
            picocli.CommandLine cli = Main.commandLine();
            ((DemoCommand) cli.getSubcommands().get("demo").getCommand()).policy = policy;
            return cli;
        }, all.toArray(String[]::new));
    }

    @Test
    void headless300FramesWriteTheStatsFileWithEveryField(@TempDir Path dir) throws Exception {
        Path stats = dir.resolve("stats.json");
        Path shot = dir.resolve("shot.png");
        Cli.Run r = run("--headless", "--frames", "300", "--width", "1280", "--height", "720", "--fixed-dt", "0.0166667", "--validate",
                "--stats-json", stats.toString(), "--screenshot", shot.toString(), "--graph-dot", dir.resolve("g.dot").toString());
        assertEquals(0, r.status(), r.err());
        assertFalse(r.err().contains("[validation"), r.err());
        String json = Files.readString(stats);
        assertEquals(0, number(json, "errors"));
        assertEquals(0, number(json, "warnings"));
        assertEquals(300, number(json, "frames"));
        assertEquals(3, number(json, "slots"));
        assertEquals(297, number(json, "samples"));
        assertEquals(3, number(json, "lagFrames"));
        assertEquals(0, number(json, "notReady"));
        assertEquals(0, number(json, "blockingWaits"));
        assertEquals(1280.0 * 720.0, number(json, "lastValue"), "uniform metering: the total is the pixel count");
        assertEquals(296, number(json, "lastValueFrame"));
        assertEquals(1.0, number(json, "normalizedHistogramSum"), 1e-5);
        assertFalse(json.contains("\"histogramSum\""), "one name for one figure: the normalized histogram's sum is normalizedHistogramSum");
        assertTrue(Double.isFinite(number(json, "ev")));
        assertTrue(json.contains("\"metering\": \"uniform\""));
        for (String pass : List.of("scene", "histogram", "reduce", "exposure", "tonemap", "hud", "readback")) {
            assertTrue(json.contains("{\"name\": \"" + pass), pass + " missing in passes: " + json);
        }
        BufferedImage img = ImageIO.read(shot.toFile());
        assertEquals(1280, img.getWidth());
        assertEquals(720, img.getHeight());
        String dot = Files.readString(dir.resolve("g.dot"));
        assertTrue(dot.startsWith("digraph") && dot.contains("tonemap"));
    }

    @Test
    void hudIsVisibleAndRunsAreReproducible(@TempDir Path dir) throws Exception {
        String[] common = {"--headless", "--frames", "20", "--width", "320", "--height", "180", "--fixed-dt", "0.05", "--validate"};
        Path a = dir.resolve("a.png"), b = dir.resolve("b.png"), off = dir.resolve("off.png");
        assertEquals(0, run(concat(common, "--screenshot", a.toString())).status());
        assertEquals(0, run(concat(common, "--screenshot", b.toString())).status());
        assertEquals(0, run(concat(common, "--screenshot", off.toString(), "--hud", "off")).status());
        BufferedImage ia = ImageIO.read(a.toFile()), ib = ImageIO.read(b.toFile()), io = ImageIO.read(off.toFile());
        int differentFromOff = 0;
        for (int y = 0; y < ia.getHeight(); y++) {
            for (int x = 0; x < ia.getWidth(); x++) {
                assertEquals(ia.getRGB(x, y), ib.getRGB(x, y), "two runs differ at " + x + "," + y);
                if (x < 200 && y < 40 && ia.getRGB(x, y) != io.getRGB(x, y)) {
                    differentFromOff++;
                }
            }
        }
        assertTrue(differentFromOff > 500, "the HUD region should differ from --hud off, " + differentFromOff + " pixels do");
    }

    @Test
    void realWindowWithResizesAndMinimizeIsValidationClean(@TempDir Path dir) throws Exception {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        Path stats = dir.resolve("w.json");
        Cli.Run r = runWith(new ResizeEveryPolicy(30), "--frames", "120", "--width", "320", "--height", "200", "--validate", "--vsync", "off",
                "--stats-json", stats.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("in a window"), r.err());
        assertFalse(r.err().contains("[validation"), r.err());
        String json = Files.readString(stats);
        assertEquals(0, number(json, "errors"));
        assertEquals(0, number(json, "notReady"));
        assertEquals(120, number(json, "frames"));
        assertTrue(number(json, "swapchainRecreations") >= 3, "the resizes recreate the swapchain: " + json);
    }

    /** Every acquire out of date (recreating the swapchain never helps): the run gives up in bounded time, one line, exit 3. */
    @Test
    void anAcquireThatNeverSucceedsGivesUpWithOneLineAndTheDeviceLostStatus(@TempDir Path dir) {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        Path stats = dir.resolve("never.json");
        Cli.Run r = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> run("--frames", "30", "--width", "160",
                "--height", "90", "--vsync", "off", "--stats-json", stats.toString(), "--set", "debug.injectFault=out-of-date@1"));
        assertEquals(3, r.status(), r::toString);
        List<String> lines = r.errLines().stream().filter(l -> !Cli.isDemoProgress(l)).toList();
        assertEquals(1, lines.size(), r::toString);
        assertTrue(lines.get(0).startsWith("tally demo: no swapchain image for 5.0 s") && lines.get(0).contains("out of date"), r::toString);
        assertFalse(Files.exists(stats), "no output files, as after a lost device");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"out-of-date@7", "suboptimal@5"})
    void injectedOutOfDateAndSuboptimalRecreateWithoutLosingSamples(String fault, @TempDir Path dir) throws Exception {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        Path stats = dir.resolve("f.json");
        Cli.Run r = run("--frames", "60", "--width", "160", "--height", "90", "--validate", "--vsync", "off",
                "--stats-json", stats.toString(), "--set", "debug.injectFault=" + fault);
        assertEquals(0, r.status(), r.err());
        assertFalse(r.err().contains("[validation"), r.err());
        String json = Files.readString(stats);
        assertEquals(60, number(json, "frames"));
        assertTrue(number(json, "swapchainRecreations") >= 8, "every fault recreates the swapchain: " + json);
        assertEquals(57, number(json, "samples"), "no lost sample");
        assertEquals(3, number(json, "lagFrames"));
        assertEquals(0, number(json, "notReady"));
        // A frame given up on an out-of-date acquire keeps its number: the last sample is the one of the frame begun 3 before the last.
        assertEquals(number(json, "lastFrameNumber") - 3, number(json, "lastValueFrame"), "no misattributed sample");
        if (fault.startsWith("suboptimal")) {
            assertEquals(59, number(json, "lastFrameNumber"), "a suboptimal present gives up no frame");
        } else {
            assertTrue(number(json, "lastFrameNumber") > 59, "the out-of-date acquires gave up frames, which keep their numbers: " + json);
        }
        assertEquals(160.0 * 90.0, number(json, "lastValue"));
    }

    @Test
    void windowClosedMidRunEndsCleanlyWithCompleteFiles(@TempDir Path dir) throws Exception {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        Path stats = dir.resolve("closed.json");
        FramePolicy closeAt25 = (frame, output) -> {
            if (frame == 25) {
                output.requestClose();   // as the window's close button does
            }
        };
        Cli.Run r = runWith(closeAt25, "--frames", "1000", "--width", "160", "--height", "90", "--validate", "--vsync", "off",
                "--stats-json", stats.toString());
        assertEquals(0, r.status(), r.err());
        assertFalse(r.err().contains("[validation"), r.err());
        String json = Files.readString(stats);
        assertEquals(25, number(json, "frames"), "the loop ends at the frame the window closed");
        assertEquals(0, number(json, "errors"));
    }

    @Test
    void badCommandLinesExitTwoWithOneLineAndWriteNothing(@TempDir Path dir) throws Exception {
        Path stats = dir.resolve("s.json");
        String[][] bad = {
                {"--no-such-flag"},
                {"--width", "-5", "--stats-json", stats.toString()},
                {"--frames", "0", "--stats-json", stats.toString()},
                {"--metering", "spot", "--stats-json", stats.toString()},
                {"--hud", "maybe"},
                {"--fixed-dt", "-1"},
                {"--headless", "--frames", "2", "--screenshot", dir.resolve("missing/dir/x.png").toString(), "--stats-json", stats.toString()},
                {"--headless", "--frames", "2", "--stats-json", dir.toString()},
        };
        for (String[] args : bad) {
            Cli.Run r = run(args);
            assertEquals(2, r.status(), () -> String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.err().strip().lines().count(), () -> "one line expected: " + r.err());
            assertTrue(r.err().startsWith("tally demo: "), r.err());
            assertFalse(Files.exists(stats), "no partial stats file for " + String.join(" ", args));
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "nothing written");
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

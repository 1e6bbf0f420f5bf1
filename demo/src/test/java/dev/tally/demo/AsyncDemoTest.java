package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The demo with async compute on lavapipe (one queue; debug.asyncOneQueue splits the lanes into batches
 * with semaphores between them on it): validation (synchronization too) stays silent, the histogram
 * still counts every pixel, the exposure is the one async off gives, and the stats file's async block
 * names the exposure chain's passes.
 */
class AsyncDemoTest {
    private static final int W = 96;
    private static final int H = 54;
    private static final List<String> CHAIN = List.of("histogram", "reduce", "exposure");

    private static String run(Path dir, String mode, int frames) throws Exception {
        Path stats = dir.resolve(mode + ".json");
        List<String> args = new ArrayList<>(List.of("demo", "--headless", "--frames", "" + frames, "--width", "" + W, "--height", "" + H,
                "--fixed-dt", "0.05", "--validate", "--stats-json", stats.toString(),
                "--set", "async.mode=" + mode, "--set", "debug.asyncOneQueue=true"));
        Cli.Run r = Cli.run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("validation: 0 errors, 0 warnings"), r::toString);
        return Files.readString(stats);
    }

    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (\"[^\"]*\"|-?[0-9.E]+|null|\\[[^\\]]*\\])").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return m.group(1);
    }

    private static String async(String json) {
        Matcher m = Pattern.compile("\"async\": (\\{[^}]*\\})").matcher(json);
        assertTrue(m.find(), "async block in " + json);
        return m.group(1);
    }

    @Test
    void onSplitsTheExposureChainAndChangesNoResult(@TempDir Path dir) throws Exception {
        String off = run(dir, "off", 12);
        String on = run(dir, "on", 12);
        for (String json : List.of(off, on)) {
            assertTrue(json.contains("\"validation\": {\"enabled\": true, \"errors\": 0, \"warnings\": 0}"), json);
            assertEquals((double) W * H, Double.parseDouble(field(json, "lastValue")), 0.0, "the readback total counts every pixel: " + json);
            assertEquals("1", field(async(json), "queues"), "lavapipe gives one queue: " + json);
        }
        assertEquals("\"off\"", field(async(off), "mode"));
        assertEquals("[]", field(async(off), "passes"), off);
        assertEquals("\"on\"", field(async(on), "mode"));
        List<String> placed = new ArrayList<>();
        Matcher names = Pattern.compile("\"([^\"]+)\"").matcher(field(async(on), "passes"));
        while (names.find()) {
            placed.add(names.group(1));
        }
        assertEquals(CHAIN, placed, on);
        for (String p : placed) {
            assertTrue(on.contains("{\"name\": \"" + p + "\", \"gpuMicrosMedian\""), "placed pass " + p + " is a pass of the frame: " + on);
        }
        assertEquals("null", field(async(on), "choice"), "only auto chooses: " + on);
        assertTrue(Double.parseDouble(field(async(on), "frameSpanMicrosMedian")) > 0, "the frame's GPU span is measured: " + on);
        // Same frames, same exposure: the lanes change where passes run, not what they compute.
        assertEquals(field(off, "ev"), field(on, "ev"));
        assertEquals(field(off, "targetEv"), field(on, "targetEv"));
        assertEquals(field(off, "normalizedHistogramSum"), field(on, "normalizedHistogramSum"));
    }

    @Test
    void autoChoosesAndItsReportAgrees(@TempDir Path dir) throws Exception {
        String auto = run(dir, "auto", 60);
        String block = async(auto);
        assertEquals("\"auto\"", field(block, "mode"));
        String choice = field(block, "choice");
        assertTrue(choice.equals("\"async\"") || choice.equals("\"main\""), "auto decided within 60 frames: " + block);
        double saved = Double.parseDouble(field(block, "savedMicros"));
        if (choice.equals("\"main\"")) {
            assertEquals(0.0, saved, block);
            assertEquals("[]", field(block, "passes"), block);
        } else {
            assertTrue(saved > 0, block);
            assertTrue(field(block, "passes").contains("\"histogram\""), block);
        }
        assertEquals((double) W * H, Double.parseDouble(field(auto, "lastValue")), 0.0, auto);
    }
}

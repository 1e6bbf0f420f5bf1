package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tally bench --only frame}: the frame-cpu case reports the demo frame's time less its pacing waits beside
 * the replay of its own command stream less the same waits, in pairs of runs taken in turn, and both threads' CPU
 * time, in the JSON (each pair's figures and ratio, their medians, the ratio's range, replayBytesPerFrame, warmUpRuns, the
 * demo's HUD text refresh),
 * in the progress text and in the table's row.
 */
class BenchFrameCpuTest {
    @TempDir
    static Path dir;

    @Test
    void frameCpuStandsBesideItsReplay() throws IOException {
        Path json = dir.resolve("bench.json");
        // A size of its own (the quick default is 320x180): the rows and the progress text name the size measured.
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame", "--progress", "--json", json.toString(), "--set", "cache.dir=" + dir.resolve("cache"),
                "--set", "hud.textRefreshMs=250", "--frame-cpu-size", "192x108");
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.err().contains("frame-cpu pair 3: "), run::toString);
        assertTrue(run.err().contains("replay of the same command stream "), run::toString);
        assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith("frame-cpu ") && l.contains("us replaying the frame's captured Vulkan calls")),
                run::toString);
        String text = Files.readString(json);
        String row = text.lines().filter(l -> l.contains("\"name\": \"frame-cpu\"")).findFirst().orElseThrow(() -> new AssertionError(text));
        assertEquals(192 * 108, JsonNumbers.number(row, "n"), row);
        int pairs = (int) JsonNumbers.number(row, "pairs");
        assertEquals(3, pairs, row);
        double[] demo = numbers(row, "pairCpuMicros"), replay = numbers(row, "pairReplayMicros"), ratios = numbers(row, "pairTallyOverReplay");
        assertEquals(pairs, demo.length, row);
        assertEquals(pairs, replay.length, row);
        assertEquals(pairs, ratios.length, row);
        for (int k = 0; k < pairs; k++) {
            assertTrue(demo[k] > 0 && replay[k] > 0, row);
            // Each pair's ratio is its own two figures' (printed to three decimals each).
            assertEquals(demo[k] / replay[k], ratios[k], 0.01 * ratios[k], row);
        }
        // The figures are the medians over the pairs: the ratio is the median of the pairs' ratios, not the medians' ratio.
        assertEquals(median(demo), JsonNumbers.number(row, "cpuMicrosMedian"), 1e-3, row);
        assertEquals(median(replay), JsonNumbers.number(row, "replayMicrosPerFrame"), 1e-3, row);
        assertEquals(median(ratios), JsonNumbers.number(row, "tallyOverReplay"), 1e-3, row);
        assertEquals(Arrays.stream(ratios).min().orElseThrow(), JsonNumbers.number(row, "tallyOverReplayMin"), 1e-3, row);
        assertEquals(Arrays.stream(ratios).max().orElseThrow(), JsonNumbers.number(row, "tallyOverReplayMax"), 1e-3, row);
        double tallyCpu = JsonNumbers.number(row, "threadCpuMicrosMedian");
        double replayCpu = JsonNumbers.number(row, "replayCpuMicrosPerFrame");
        assertTrue(tallyCpu > 0 && replayCpu > 0, row);
        assertTrue(JsonNumbers.number(row, "tallyOverReplayThreadCpu") > 0, row);
        assertTrue(JsonNumbers.number(row, "warmUpRuns") >= 8, row);
        assertTrue(JsonNumbers.number(row, "replayBytesPerFrame") >= 0, row);
        // The demo's HUD text refresh changes what its frame does: the row says which one was measured.
        assertEquals(250, JsonNumbers.number(row, "hudTextRefreshMs"), row);
        assertTrue(row.contains("HUD text rebuilt every 250 ms of the frame clock"), row);
        // The JVM's heap pages as it took them: this test's JVM runs without the launcher's -XX:+UseTransparentHugePages.
        assertTrue(row.contains("\"transparentHugePages\": false"), row);
        assertTrue(row.contains("\"spinWaits\": false"), row);
        // On lavapipe the GPU sets the pace: the demo's frames wait for it in Tally's pacing wait.
        assertTrue(JsonNumbers.number(row, "pacingMicrosPerFrame") > 0, row);
        // Beside it, one run timed phase by phase: every phase's median in the JSON and the progress text.
        String phases = text.lines().filter(l -> l.contains("\"name\": \"frame-cpu-phases\"")).findFirst().orElseThrow(() -> new AssertionError(text));
        for (dev.tally.demo.app.FramePhases.Phase p : dev.tally.demo.app.FramePhases.Phase.values()) {
            assertTrue(JsonNumbers.number(phases, p.label()) >= 0, p + " in " + phases);
        }
        assertTrue(run.err().contains("frame-cpu-phases 192x108 medians: begin "), run::toString);
        // And the replay's frame in the phases it shares with the demo's, each timed (a phase never timed reads 0).
        for (String p : new String[]{"commands", "record", "submit"}) {
            Matcher m = Pattern.compile("\"replayPhaseMicros\": \\{[^}]*\"" + p + "\": ([0-9.]+)").matcher(phases);
            assertTrue(m.find(), () -> p + " of the replay's phases in " + phases);
            assertTrue(Double.parseDouble(m.group(1)) > 0, p + " of the replay's phases in " + phases);
        }
        assertTrue(run.err().contains("frame-cpu-phases 192x108, the replay of the same command stream: commands "), run::toString);
    }

    @Test
    void frameCpuSpinPollsTheGpuInsteadOfWaiting() throws IOException {
        Path json = dir.resolve("spin.json");
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame", "--json", json.toString(), "--set", "cache.dir=" + dir.resolve("cache"),
                "--frame-cpu-spin");
        assertEquals(0, run.status(), run::toString);
        String text = Files.readString(json);
        String row = text.lines().filter(l -> l.contains("\"name\": \"frame-cpu\"")).findFirst().orElseThrow(() -> new AssertionError(text));
        assertTrue(row.contains("\"spinWaits\": true") && row.contains("the GPU waited for by polling, not sleeping"), row);
        // Every frame found its slot free: the polling between frames left Tally's pacing nothing to wait for.
        assertEquals(0.0, JsonNumbers.number(row, "pacingMicrosPerFrame"), row);
        assertTrue(JsonNumbers.number(row, "tallyOverReplay") > 0, row);
    }

    private static double[] numbers(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\": \\[([^\\]]*)\\]").matcher(json);
        assertTrue(m.find(), () -> key + " missing in " + json);
        return Arrays.stream(m.group(1).split(",")).mapToDouble(v -> Double.parseDouble(v.trim())).toArray();
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}

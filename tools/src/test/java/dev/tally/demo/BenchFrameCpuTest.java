package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tally bench --only frame}: the frame-cpu case reports the demo frame's time less its pacing waits beside
 * the replay of its own command stream less the same waits, and both threads' CPU time, in the JSON
 * (replayMicrosPerFrame, tallyOverReplay, replayCpuMicrosPerFrame, tallyOverReplayThreadCpu, replayBytesPerFrame,
 * warmUpRuns), in the progress text and in the table's row.
 */
class BenchFrameCpuTest {
    @TempDir
    static Path dir;

    @Test
    void frameCpuStandsBesideItsReplay() throws IOException {
        Path json = dir.resolve("bench.json");
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame", "--progress", "--json", json.toString(), "--set", "cache.dir=" + dir.resolve("cache"));
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.err().contains("frame-cpu replay of the same command stream: "), run::toString);
        assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith("frame-cpu ") && l.contains("us replaying the frame's captured Vulkan calls")),
                run::toString);
        String text = Files.readString(json);
        String row = text.lines().filter(l -> l.contains("\"name\": \"frame-cpu\"")).findFirst().orElseThrow(() -> new AssertionError(text));
        double tally = JsonNumbers.number(row, "cpuMicrosMedian");
        double replay = JsonNumbers.number(row, "replayMicrosPerFrame");
        assertTrue(tally > 0 && replay > 0, row);
        // Each ratio is its two figures' (printed to three decimals each).
        assertEquals(tally / replay, JsonNumbers.number(row, "tallyOverReplay"), 0.01 * tally / replay, row);
        double tallyCpu = JsonNumbers.number(row, "threadCpuMicrosMedian");
        double replayCpu = JsonNumbers.number(row, "replayCpuMicrosPerFrame");
        assertTrue(tallyCpu > 0 && replayCpu > 0, row);
        assertEquals(tallyCpu / replayCpu, JsonNumbers.number(row, "tallyOverReplayThreadCpu"), 0.01 * tallyCpu / replayCpu, row);
        assertTrue(JsonNumbers.number(row, "warmUpRuns") >= 8, row);
        assertTrue(JsonNumbers.number(row, "replayBytesPerFrame") >= 0, row);
    }
}

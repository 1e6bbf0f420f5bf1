package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tally bench --only frame}: the frame-cpu case reports the demo frame's thread CPU beside the replay
 * of its own command stream, in the JSON (replayCpuMicrosPerFrame, tallyOverReplay, replayBytesPerFrame)
 * in the progress text and in the table's row.
 */
class BenchFrameCpuTest {
    @TempDir
    static Path dir;

    @Test
    void frameCpuStandsBesideItsReplay() throws IOException {
        Path json = dir.resolve("bench.json");
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame", "--progress", "--json", json.toString(), "--set", "cache.dir=" + dir.resolve("cache"));
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.err().contains("frame-cpu replay of the same command stream: thread CPU"), run::toString);
        assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith("frame-cpu ") && l.contains("us replaying the frame's captured Vulkan calls")),
                run::toString);
        String text = Files.readString(json);
        String row = text.lines().filter(l -> l.contains("\"name\": \"frame-cpu\"")).findFirst().orElseThrow(() -> new AssertionError(text));
        double tally = JsonNumbers.number(row, "threadCpuMicrosMedian");
        double replay = JsonNumbers.number(row, "replayCpuMicrosPerFrame");
        assertTrue(tally > 0 && replay > 0, row);
        // The ratio is the two figures' (printed to three decimals each).
        assertEquals(tally / replay, JsonNumbers.number(row, "tallyOverReplay"), 0.01 * tally / replay, row);
        assertTrue(JsonNumbers.number(row, "replayBytesPerFrame") >= 0, row);
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.tally.demo.JsonNumbers.number;
import static org.junit.jupiter.api.Assertions.*;

/** The demo's freshest readback and luminance probe on lavapipe with validation, through the stats file. */
class ReadbackDemoTest {
    @TempDir
    static Path cache;

    @Test
    void freshestStatsAndTheProbeReachTheStatsFile(@TempDir Path dir) throws Exception {
        Path stats = dir.resolve("stats.json");
        Cli.Run r = Cli.run("demo", "--headless", "--frames", "40", "--width", "160", "--height", "90", "--validate", "--readback", "freshest",
                "--stats-json", stats.toString(), "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r.err());
        String json = Files.readString(stats);
        assertTrue(json.contains("\"mode\": \"freshest\""), json);
        assertTrue(number(json, "lagMin") >= 1 && number(json, "lagMax") <= 3, json);
        assertEquals(0, number(json, "stale"));
        assertEquals(0, number(json, "rejected"));
        assertEquals(0, number(json, "blockingWaits"));
        assertTrue(number(json, "ageMillisMedian") >= 0, json);
        double luminance = number(json, "luminance");
        assertTrue(luminance > 0, json);
        assertEquals(Math.log(luminance) / Math.log(2), number(json, "ev"), 1e-9, "the probe's EV is log2 of its luminance");
        assertEquals(0, number(json, "errors"));
    }

    @Test
    void anUnknownReadbackModeIsRefusedNamingTheChoices() {
        Cli.Run r = Cli.run("demo", "--headless", "--frames", "1", "--readback", "newest", "--set", "cache.dir=" + cache);
        assertEquals(2, r.status());
        assertTrue(r.err().contains("expected fixed, freshest or sync"), r.err());
    }
}

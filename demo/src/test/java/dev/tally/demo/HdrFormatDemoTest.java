package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.tally.demo.JsonNumbers.number;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The demo's scene in either HDR format (B10G11R11: 6/6/5 mantissa bits; RGBA16F: 10) gives the same frame
 * within the packed format's precision: every pixel counted by the histogram, the probe's luminance (read back
 * and decoded from the image's own format) within 2 %, the adapted exposure within 0.05 EV. Lavapipe, validation on.
 */
class HdrFormatDemoTest {
    @TempDir
    static Path cache;

    private static double exposureEv(String json) {
        return number(json.substring(json.indexOf("\"exposure\": {")), "ev");
    }

    private static String run(Path dir, String format) throws Exception {
        Path stats = dir.resolve(format + ".json");
        Cli.Run r = Cli.run("demo", "--headless", "--frames", "30", "--fixed-dt", "0.1", "--width", "160", "--height", "90", "--validate",
                "--hdr-format", format, "--stats-json", stats.toString(), "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r.err());
        String json = Files.readString(stats);
        assertEquals(0, number(json, "errors"), json);
        assertEquals(0, number(json, "warnings"), json);
        assertEquals(160 * 90, number(json, "lastValue"), "every pixel counted once: " + json);
        return json;
    }

    @Test
    void bothFormatsShowTheSameFrameWithinThePackedFormatsPrecision(@TempDir Path dir) throws Exception {
        String packed = run(dir, "b10g11r11");
        String half = run(dir, "rgba16f");
        double lp = number(packed, "luminance"), lh = number(half, "luminance");
        assertTrue(lh > 0 && Math.abs(lp - lh) <= 0.02 * lh, "probe luminance " + lp + " vs " + lh);
        assertEquals(exposureEv(half), exposureEv(packed), 0.05, "exposure EV");
    }

    @Test
    void anUnknownFormatIsOneLineNamingTheChoices() {
        Cli.Run r = Cli.run("demo", "--headless", "--frames", "1", "--hdr-format", "rgba8", "--set", "cache.dir=" + cache);
        assertEquals(2, r.status());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("--hdr-format: expected b10g11r11 or rgba16f, got 'rgba8'"), r.err());
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The readback ring's "0 waits" means something: the synchronous mode, reading within the frame, moves
 * the same counter (one wait per frame), while the ring's default mode leaves it at zero and the frame's
 * pacing is reported apart.
 */
class ReadbackModeTest {
    private static final int FRAMES = 30;

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (-?[0-9.]+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Math.round(Double.parseDouble(m.group(1)));
    }

    private static String run(Path dir, String mode) throws Exception {
        Path stats = dir.resolve(mode + ".json");
        Cli.Run r = Cli.run("demo", "--headless", "--frames", Integer.toString(FRAMES), "--width", "320", "--height", "180", "--validate",
                "--readback", mode, "--stats-json", stats.toString());
        assertEquals(0, r.status(), r::toString);
        return Files.readString(stats);
    }

    @Test
    void synchronousReadbackWaitsEveryFrameTheRingNever(@TempDir Path dir) throws Exception {
        String sync = run(dir, "sync");
        assertTrue(sync.contains("\"mode\": \"sync\""), sync);
        assertTrue(number(sync, "blockingWaits") >= FRAMES - 1, "sync reads wait for the GPU: " + sync);
        assertEquals(0, number(sync, "lagFrames"), "read within its own frame");

        String ring = run(dir, "fixed");
        assertTrue(ring.contains("\"mode\": \"fixed\""), ring);
        assertEquals(0, number(ring, "blockingWaits"), ring);
        assertEquals(3, number(ring, "lagFrames"));
        assertTrue(number(ring, "pacingWaits") >= 0, "pacing is reported apart: " + ring);
    }

    @Test
    void anUnknownModeIsOneLineAndExitTwo() {
        Cli.Run r = Cli.run("demo", "--headless", "--frames", "2", "--readback", "eventually");
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("--readback: 'eventually' is not a readback mode"), r::toString);
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The short soak of the reliability issue, in a resizing window (Xvfb) and headless. */
class SoakCommandTest {
    @TempDir
    Path cache;

    @Test
    void twoThousandFramesInAResizingWindowLeakNothingAndNeverWait() {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        // 2,100 frames at 160x90, resized every 100 frames (to half, to 1x1 and back), validation on.
        // Reports every 300 frames: a whole cycle of sizes, so every report sees the same window size
        // and memory figures are comparable.
        Cli.Run r = Cli.run("soak", "--frames", "2100", "--report-every", "300", "--window", "--resize-every", "100",
                "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r.toString());
        assertTrue(r.out().contains("soak passed: 2100 frames"), r.out());
        assertTrue(r.out().contains("frame 300: validation 0;") && r.out().contains("frame 2100: validation 0;"), r.out());
    }

    @Test
    void headlessSoakReportsAndPasses() {
        Cli.Run r = Cli.run("soak", "--frames", "400", "--report-every", "100", "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r.toString());
        assertTrue(r.out().contains("0 objects created after warm-up"), r.out());
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The short soak of the reliability issue: 2,000 frames at 160x90 in a window (Xvfb), a resize every 100 frames. */
class SoakCommandTest {
    @TempDir
    Path cache;

    @Test
    void twoThousandFramesInAResizingWindowLeakNothingAndNeverWait() {
        // 2,100 frames at 160x90, resized every 100 frames (to half, to 1x1 and back), validation on.
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        int status;
        try {
            // Reports every 300 frames: a whole cycle of sizes (full, half, 1x1 at 100 frames each), so every
            // report sees the same window size and memory figures are comparable.
            status = Main.run("soak", "--frames", "2100", "--report-every", "300", "--window", "--resize-every", "100", "--set",
                    "cache.dir=" + cache);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        assertTrue(report.contains("soak passed: 2100 frames"), report);
        assertTrue(report.contains("frame 300: validation 0;") && report.contains("frame 2100: validation 0;"), report);
    }

    @Test
    void headlessSoakReportsAndPasses() {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        int status;
        try {
            status = Main.run("soak", "--frames", "400", "--report-every", "100", "--set", "cache.dir=" + cache);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        assertTrue(report.contains("0 objects created after warm-up"), report);
    }
}

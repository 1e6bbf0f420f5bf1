package dev.tally.demo.bench;

import dev.tally.Tally;
import dev.tally.config.Config;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Heap bytes the frame thread allocates per frame on the path users run: the demo's whole frame (begin,
 * declaration of the scene, auto-exposure, tonemap, plot, HUD and readback passes, cached compile and
 * barriers, recording into a real command buffer, submission, ring delivery) through the public frame API,
 * counted by the JVM (ThreadMXBean) over a run of frames after a warm-up, on the device Tally opens
 * (lavapipe here), with validation on. A bound on garbage, not on time.
 * <p>
 * The frames run in a JVM of their own: the test JVM tracks every MemoryStack frame (LWJGL's debug stack),
 * which allocates on each push and is not the path users run.
 */
class FrameAllocationTest {
    /** The frame path measured 11.8 KB per frame here (64x36); before its barriers were cached and its declaration slimmed, 39.6 KB. */
    private static final double MAX_BYTES_PER_FRAME = 16_000;
    private static final int WARM_UP_RUNS = 10;
    private static final int FRAMES = 100;

    @Test
    void aSteadyFrameAllocatesLittle() throws IOException, InterruptedException {
        Path out = Files.createTempFile("tally-frame-alloc", ".txt");
        try {
            Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xss4m",
                    "-cp", System.getProperty("java.class.path"), Probe.class.getName()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("the frames did not finish in 120 s: " + Files.readString(out));
            }
            String text = Files.readString(out);
            assertEquals(0, p.exitValue(), text);
            String line = text.lines().filter(l -> l.startsWith("bytesPerFrame ")).findFirst().orElseThrow(() -> new AssertionError(text));
            String[] f = line.split(" ");
            double bytes = Double.parseDouble(f[1]);
            assertEquals(FRAMES, Long.parseLong(f[2]), text);
            assertEquals(0, Long.parseLong(f[3]), "validation messages: " + text);
            assertTrue(bytes > 0, "premise: a frame allocates something (the count works): " + text);
            assertTrue(bytes < MAX_BYTES_PER_FRAME, () -> String.format(Locale.ROOT, "%.0f bytes allocated per frame; at most %.0f expected",
                    bytes, MAX_BYTES_PER_FRAME));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Runs the demo's frames and prints "bytesPerFrame BYTES FRAMES VALIDATION_MESSAGES". */
    public static final class Probe {
        public static void main(String[] args) {
            try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", dev.tally.demo.CommonOptions.LIVE_SHADERS)), List.of());
                 DemoFrames frames = new DemoFrames(tally, 64, 36, FRAMES)) {
                for (int i = 0; i < WARM_UP_RUNS; i++) {
                    frames.run();   // warm-up: plans, transients, descriptor sets and the JIT settle
                }
                DemoFrames.Figures f = frames.measure();
                if (f.bytesPerFrame() < 0) {
                    System.out.println("this JVM cannot count a thread's allocations");
                    System.exit(3);
                }
                System.out.printf(Locale.ROOT, "bytesPerFrame %.1f %d %d%n", f.bytesPerFrame(), f.frames(),
                        tally.context().validationLog().total());
            }
        }
    }
}

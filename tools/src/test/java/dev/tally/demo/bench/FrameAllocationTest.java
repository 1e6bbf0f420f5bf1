package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    /**
     * Less than one object per frame (the smallest is 16 B): a per-frame allocation fails this test, which then names the sites. The steady frames measured 56 B
     * (the Frame object) before frame objects were reused, 1,276 B before the nodes' pass data, the capture's regions, the ring's stats, the
     * status line and the submission's name stopped allocating; 1.55-1.7 KB once the graph reused its graphs, passes and
     * handles; 5.9 KB before; 39.6 KB before the barriers were cached.
     */
    private static final double MAX_BYTES_PER_FRAME = 8;
    private static final int WARM_UP_RUNS = 10;
    private static final int FRAMES = 100;

    @Test
    void aSteadyFrameAllocatesLessThanOneObject() throws IOException, InterruptedException {
        check(false);
    }

    /** With wall-clock time, as the demo runs by default: the HUD's frame rate, CPU time and per-pass GPU times too. */
    @Test
    void aSteadyFrameWithWallClockTimingsAllocatesLessThanOneObject() throws IOException, InterruptedException {
        check(true);
    }

    /**
     * Recorded in batches on two queue lanes (async compute on, the lanes split on the one queue lavapipe has), as on a
     * device with an async compute queue: {@code recordBatches} and Tally's submission of each batch.
     */
    @Test
    void aSteadyFrameRecordedInBatchesAllocatesLessThanOneObject() throws IOException, InterruptedException {
        check(false, true);
    }

    /**
     * Exactly 0 B with the optimizing compiler off ({@code -XX:TieredStopAtLevel=1}): the frame's code as written, with no
     * escape analysis to remove an allocation, and without what C2 itself allocates on the frame thread (HotSpot resolves a
     * class's string constants there when it queues one of its methods for C2, a one-off per class that the bound above
     * leaves room for). Wall-clock timing, the demo's default, so the HUD's text changes every frame.
     */
    @Test
    void aSteadyFrameAllocatesNothingAsWritten() throws IOException, InterruptedException {
        check(true, false, true, 0);
    }

    /**
     * On JDK 25 or later, where LWJGL's core has an FFM backend whose native calls allocate (about 600 B a frame here, in
     * {@code NativeMemorySegmentImpl}s): the demo ships LWJGL's core without it, and the frame allocates nothing there too.
     */
    @Test
    void onJdk25ASteadyFrameAllocatesLessThanOneObject() throws IOException, InterruptedException {
        check(true, false, false, MAX_BYTES_PER_FRAME, Jdk25.homeOrAbort());
    }

    /** The same with C1 only: exactly 0 B (the pass timings' median sorted with Arrays.sort allocated there, 11.6 B a frame). */
    @Test
    void onJdk25ASteadyFrameAllocatesNothingAsWritten() throws IOException, InterruptedException {
        check(true, false, true, 0, Jdk25.homeOrAbort());
    }

    private static void check(boolean wallClock) throws IOException, InterruptedException {
        check(wallClock, false);
    }

    private static void check(boolean wallClock, boolean batches) throws IOException, InterruptedException {
        check(wallClock, batches, false, MAX_BYTES_PER_FRAME);
    }

    /** Runs the probe ({@code c1Only}: without the optimizing compiler) and fails above {@code maxBytes} a frame, naming the sites. */
    private static void check(boolean wallClock, boolean batches, boolean c1Only, double maxBytes) throws IOException, InterruptedException {
        check(wallClock, batches, c1Only, maxBytes, Paths.get(System.getProperty("java.home")));
    }

    /** As above, the probe run by the JDK at {@code javaHome}. */
    private static void check(boolean wallClock, boolean batches, boolean c1Only, double maxBytes, Path javaHome) throws IOException, InterruptedException {
        String text = probe(false, wallClock, batches, c1Only, javaHome);
        String line = text.lines().filter(l -> l.startsWith("bytesPerFrame ")).findFirst().orElseThrow(() -> new AssertionError(text));
        String[] f = line.split(" ");
        double bytes = Double.parseDouble(f[1]);
        assertEquals(FRAMES, Long.parseLong(f[2]), text);
        assertEquals(0, Long.parseLong(f[3]), "validation messages: " + text);
        if (bytes > maxBytes) {
            String sites = probe(true, wallClock, batches, c1Only, javaHome).lines().filter(l -> l.startsWith("site ")).map(l -> l.substring("site ".length()))
                    .collect(Collectors.joining("\n"));
            fail(String.format(Locale.ROOT, "%.1f bytes allocated per frame%s on %s; at most %.0f expected. Top allocation sites over %d frames "
                    + "(JFR, first dev.tally frame):%n%s", bytes, c1Only ? " with C1 only" : "", javaHome, maxBytes, FRAMES, sites));
        }
    }

    /**
     * Runs the probe in a JVM of its own; with {@code sites}, under an allocation recording with small fixed TLABs; with
     * {@code c1Only}, without the optimizing compiler.
     */
    private static String probe(boolean sites, boolean wallClock, boolean batches, boolean c1Only, Path javaHome) throws IOException, InterruptedException {
        Path out = Files.createTempFile("tally-frame-alloc", ".txt");
        try {
            List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin").resolve("java").toString(), "-Xss4m"));
            if (c1Only) {
                command.add("-XX:TieredStopAtLevel=1");
            }
            if (sites) {
                command.addAll(List.of("-XX:TLABSize=2k", "-XX:-ResizeTLAB"));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
            command.add(sites ? "sites" : "count");
            command.add(wallClock ? "wall-clock" : "fixed-dt");
            command.add(batches ? "batches" : "one-buffer");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("the frames did not finish in 180 s: " + Files.readString(out));
            }
            String text = Files.readString(out);
            assertEquals(0, p.exitValue(), text);
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * Runs the demo's frames and prints "bytesPerFrame BYTES FRAMES VALIDATION_MESSAGES"; with the first argument {@code sites},
     * records the measured frames' allocations and prints the top sites too, one "site " line each; the second argument is
     * {@code wall-clock} (the demo's default timing) or {@code fixed-dt} (1/60 s per frame); the third {@code batches} records the
     * frame in batches on two lanes.
     */
    public static final class Probe {
        public static void main(String[] args) {
            boolean sites = args.length > 0 && args[0].equals("sites");
            double fixedDt = args.length > 1 && args[1].equals("wall-clock") ? 0 : 1.0 / 60;
            List<String> settings = new ArrayList<>(List.of("validation.enabled=true", dev.tally.demo.CommonOptions.LIVE_SHADERS));
            if (args.length > 2 && args[2].equals("batches")) {
                settings.addAll(List.of("async.mode=on", "debug.asyncOneQueue=true"));
            }
            try (Tally tally = Tally.open(Config.load(null, settings), List.of());
                 DemoFrames frames = new DemoFrames(tally, 64, 36, FRAMES, null, fixedDt)) {
                for (int i = 0; i < WARM_UP_RUNS; i++) {
                    frames.run();   // warm-up: plans, transients, descriptor sets and the JIT settle
                }
                // Once measured unrecorded: the measuring run's own lambdas are linked now, not inside the counted run.
                frames.measure();
                DemoFrames.Figures[] f = new DemoFrames.Figures[1];
                List<AllocationSites.Site> found = sites ? AllocationSites.record(() -> f[0] = frames.measure()) : List.of();
                if (!sites) {
                    // The smaller of two runs: an allocation every frame shows in both, a one-off (a late class load, the JIT's
                    // own) in at most one (seen once: 1.6 KB in one batched run of 100 frames, none in the next).
                    DemoFrames.Figures first = frames.measure();
                    DemoFrames.Figures second = frames.measure();
                    f[0] = first.bytesPerFrame() <= second.bytesPerFrame() ? first : second;
                }
                if (f[0].bytesPerFrame() < 0) {
                    System.out.println("this JVM cannot count a thread's allocations");
                    System.exit(3);
                }
                System.out.printf(Locale.ROOT, "bytesPerFrame %.1f %d %d%n", f[0].bytesPerFrame(), f[0].frames(),
                        Engine.of(tally).context().validationLog().total());
                AllocationSites.describe(found, Integer.getInteger("sites", 12)).lines().forEach(l -> System.out.println("site " + l));
            }
        }
    }
}

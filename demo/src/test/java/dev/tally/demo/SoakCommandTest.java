package dev.tally.demo;

import dev.tally.Tally;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The soak, judged from its figures (the --json reports), not from its own verdict line: validation
 * messages, live VMA allocations and bytes, objects created, readback lag and waits. A soak with a leak
 * injected from here must fail, with the leak visible in the same figures.
 */
class SoakCommandTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;

    /** One report of the --json file. */
    record Report(long frame, int width, int height, Map<String, Long> figures) {
        long get(String key) {
            Long v = figures.get(key);
            assertNotNull(v, () -> key + " missing from " + figures);
            return v;
        }
    }

    private static final Pattern REPORT = Pattern.compile("\\{\"frame\": [^}]*}");
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\": (-?\\d+)");

    static List<Report> reports(String json) {
        List<Report> out = new ArrayList<>();
        Matcher m = REPORT.matcher(json);
        while (m.find()) {
            Map<String, Long> f = new TreeMap<>();
            Matcher fm = FIELD.matcher(m.group());
            while (fm.find()) {
                f.put(fm.group(1), Long.parseLong(fm.group(2)));
            }
            out.add(new Report(f.get("frame"), f.get("width").intValue(), f.get("height").intValue(), f));
        }
        return out;
    }

    private static long readback(String json, String key) {
        Matcher m = Pattern.compile("\"readback\": \\{[^}]*\"" + key + "\": (\\d+)").matcher(json);
        assertTrue(m.find(), () -> key + " in " + json);
        return Long.parseLong(m.group(1));
    }

    /**
     * The in-process soaks share this JVM's heap with the tests around them, and the test JVM tracks every MemoryStack frame
     * (LWJGL's debug stack, which allocates on each push): collections here are not the frame loop's. Only the tests that judge
     * collections keep the default budget of 0 (see {@link #aFrameLoopThatMakesGarbageFailsTheSoak}).
     */
    private static final String[] ANY_GCS = {"--gc-budget", Long.toString(Long.MAX_VALUE)};

    private Cli.Run soak(String cmd, SoakCommand instance, String... args) {
        List<String> all = new ArrayList<>(List.of(cmd, "--json", dir.resolve("soak.json").toString(), "--set", "cache.dir=" + cache));
        if (!List.of(args).contains("--gc-budget")) {
            all.addAll(List.of(ANY_GCS));
        }
        all.addAll(List.of(args));
        Cli.Run r = instance == null ? Cli.run(all.toArray(String[]::new))
                : Cli.run(null, () -> Main.commandLine().addSubcommand(cmd, instance), all.toArray(String[]::new));
        System.err.println("tally " + String.join(" ", all) + " -> " + r);
        return r;
    }

    private String json() throws IOException {
        return Files.readString(dir.resolve("soak.json"));
    }

    /** Figures of a clean run: no validation, readback always exactly slots frames late, never waiting. */
    private static void assertCleanReadback(String json, List<Report> reports) {
        for (Report r : reports) {
            assertEquals(0, r.get("validation"), () -> "validation messages at frame " + r.frame());
            assertEquals(0, r.get("waits"), () -> "waits at frame " + r.frame());
            assertEquals(0, r.get("notReady"), () -> "not ready at frame " + r.frame());
        }
        assertEquals(readback(json, "slots"), readback(json, "lag"), json);
        assertEquals(0, readback(json, "samplesOffLag"), json);
        assertEquals(0, readback(json, "waits"), json);
    }

    /** Same-size reports after the first hold exactly the same live allocations and bytes. */
    private static void assertFlatPerSize(List<Report> reports) {
        Map<String, Report> firstAtSize = new TreeMap<>();
        for (Report r : reports.subList(1, reports.size())) {
            Report first = firstAtSize.putIfAbsent(r.width() + "x" + r.height(), r);
            if (first != null) {
                assertEquals(first.get("allocations"), r.get("allocations"), () -> "allocations " + first + " -> " + r);
                assertEquals(first.get("bytes"), r.get("bytes"), () -> "bytes " + first + " -> " + r);
            }
        }
    }

    @Test
    void defaultReportIntervalFitsThreeHundredFrames() throws IOException {
        Cli.Run r = soak("soak", null, "--frames", "300");
        assertEquals(0, r.status(), r::toString);
        String json = json();
        List<Report> reports = reports(json);
        // A fifth of the run: reports at 60, 120, ..., 300.
        assertEquals(List.of(60L, 120L, 180L, 240L, 300L), reports.stream().map(Report::frame).toList(), json);
        assertCleanReadback(json, reports);
        assertFlatPerSize(reports);
        assertEquals(reports.get(1).get("objectsCreated"), reports.get(4).get("objectsCreated"), "no Vulkan objects created after warm-up");
        assertTrue(readback(json, "samples") >= 300 - readback(json, "slots") - 1, json);
        // Frame times after warm-up (after the report at frame 120; the frames after the reports at 120, 180 and 240 left out).
        assertEquals(300 - 120 - 3, number(json, "frameTimes"), json);
        assertTrue(number(json, "frameTimeP99Micros") > 0 && number(json, "frameTimeMaxMicros") >= number(json, "frameTimeP99Micros"), json);
        assertTrue(r.out().contains("frame time after warm-up: p99 "), r::toString);
    }

    private static double number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (-?[0-9.]+)").matcher(json);
        assertTrue(m.find(), () -> key + " in " + json);
        return Double.parseDouble(m.group(1));
    }

    /** A soak whose frame loop makes 4 MiB of garbage per frame: the collector must run. */
    static final class GarbageSoak extends SoakCommand {
        static volatile byte[] sink;

        @Override
        void afterFrame(Tally tally, long frame, boolean last) {
            sink = new byte[4 << 20];
        }
    }

    @Test
    void aFrameLoopThatMakesGarbageFailsTheSoak() throws IOException {
        Cli.Run r = soak("garbage-soak", new GarbageSoak(), "--frames", "200", "--gc-budget", "0");
        assertEquals(1, r.status(), r::toString);
        String json = json();
        // Reports at 40, 80, ..., 200: collections counted from the warm-up report (80) on, the reports' own System.gc() left out.
        List<Report> reports = reports(json);
        long expected = 0;
        for (int i = 2; i < reports.size(); i++) {
            expected += reports.get(i).get("gcsBefore") - reports.get(i - 1).get("gcsAfter");
        }
        assertTrue(expected > 0, json);
        assertEquals(expected, (long) number(json, "loopGcs"), json);
        String line = r.out().lines().filter(l -> l.startsWith("soak FAILED: ") && l.contains("garbage collections")).findFirst()
                .orElseThrow(() -> new AssertionError(r.toString()));
        assertTrue(line.startsWith("soak FAILED: " + expected + " garbage collections while the frame loop ran after warm-up (frames 80 -> 200"), line);
        assertTrue(line.contains("collectors so far") && line.contains(ManagementFactory.getGarbageCollectorMXBeans().get(0).getName() + " "), line);
    }

    @Test
    void defaultReportIntervalFitsAThousandFrames() throws IOException {
        Cli.Run r = soak("soak", null, "--frames", "1000", "--width", "32", "--height", "18");
        assertEquals(0, r.status(), r::toString);
        List<Report> reports = reports(json());
        assertEquals(List.of(200L, 400L, 600L, 800L, 1000L), reports.stream().map(Report::frame).toList());
        assertCleanReadback(json(), reports);
        assertFlatPerSize(reports);
    }

    @Test
    void tooFewFramesForTwoReportsIsBadInput() {
        Cli.Run r = Cli.run("soak", "--frames", "15", "--set", "cache.dir=" + cache);
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().startsWith("tally soak: --frames: at least two reports"), r::toString);
        assertFalse(Files.exists(dir.resolve("soak.json")));
    }

    @Test
    void resizingHeadlessComparesReportsOfTheSameSizeOnly() throws IOException {
        // Reports every 30 frames, sizes change every 40: the report the verdict starts from (frame 60) is at
        // half size and the last (frame 360) at full size, so comparing across sizes would see growth.
        Cli.Run r = soak("soak", null, "--frames", "360", "--resize-every", "40", "--report-every", "30");
        assertEquals(0, r.status(), r::toString);
        List<Report> reports = reports(json());
        assertEquals("80x45", reports.get(1).width() + "x" + reports.get(1).height(), () -> "half size: " + reports);
        assertEquals("160x90", reports.get(11).width() + "x" + reports.get(11).height(), () -> "full size: " + reports);
        assertTrue(reports.get(11).get("bytes") > reports.get(1).get("bytes"), () -> "full size holds more: " + reports);
        assertCleanReadback(json(), reports);
        assertFlatPerSize(reports);
    }

    @Test
    void defaultIntervalWhenResizingIsAWholeCycleOfSizes() throws IOException {
        Cli.Run r = soak("soak", null, "--frames", "300", "--resize-every", "25");
        assertEquals(0, r.status(), r::toString);
        List<Report> reports = reports(json());
        // Headless sizes alternate full/half every 25 frames: a cycle is 50; a fifth of 300 rounds to 50.
        assertEquals(List.of(50L, 100L, 150L, 200L, 250L, 300L), reports.stream().map(Report::frame).toList());
        assertEquals(1, reports.stream().map(x -> x.width() + "x" + x.height()).distinct().count(), () -> "one size: " + reports);
        assertFlatPerSize(reports);
    }

    /** A soak that leaks one buffer per frame (freed after the last report, so the context closes clean). */
    static final class LeakySoak extends SoakCommand {
        private final List<GpuBuffer> leaked = new ArrayList<>();

        @Override
        void afterFrame(Tally tally, long frame, boolean last) {
            leaked.add(tally.createBuffer("leak" + frame, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE));
            if (last) {
                leaked.forEach(GpuBuffer::close);
                leaked.clear();
            }
        }
    }

    @Test
    void anInjectedLeakShowsInTheFiguresAndFailsTheSoak() throws IOException {
        Cli.Run r = soak("leaky-soak", new LeakySoak(), "--frames", "200");
        assertEquals(1, r.status(), r::toString);
        List<Report> reports = reports(json());
        assertEquals(5, reports.size(), json());
        for (int i = 1; i < reports.size(); i++) {
            Report a = reports.get(i - 1);
            Report b = reports.get(i);
            // One allocation and at least 4 KiB per frame between reports.
            assertEquals(b.frame() - a.frame(), b.get("allocations") - a.get("allocations"), () -> a + " -> " + b);
            assertTrue(b.get("bytes") - a.get("bytes") >= 4096 * (b.frame() - a.frame()), () -> a + " -> " + b);
        }
        assertTrue(json().contains("allocations drifted"), json());
    }

    @Test
    void twoThousandFramesInAResizingWindowLeakNothingAndNeverWait() throws IOException {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X server: ./tally test runs under Xvfb");
        // 2,100 frames at 160x90, resized every 100 frames (to half, to 1x1 and back), validation on.
        // Reports every 300 frames: a whole cycle of sizes, so every report sees the same window size.
        Cli.Run r = soak("soak", null, "--frames", "2100", "--report-every", "300", "--window", "--resize-every", "100");
        assertEquals(0, r.status(), r::toString);
        List<Report> reports = reports(json());
        assertEquals(7, reports.size());
        assertCleanReadback(json(), reports);
        assertFlatPerSize(reports);
    }
}

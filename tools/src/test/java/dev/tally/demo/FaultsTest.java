package dev.tally.demo;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Reliability of the demo and reduce commands under faults: a lost device (injected with
 * debug.injectFault), out of device memory, and SIGTERM in the middle of a headless run.
 */
class FaultsTest {
    /** Shared SPIR-V and pipeline cache, warmed once, so timings measure the fault path, not shader compiles. */
    @TempDir
    static Path cache;

    @BeforeAll
    static void warmCache() {
        Cli.Run r = ToolsCli.run("demo", "--headless", "--frames", "1", "--width", "8", "--height", "8", "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r::toString);
    }

    private static void assertNoTraceOrValidation(Cli.Run r) {
        assertFalse(r.err().contains("\tat ") || r.out().contains("\tat "), () -> "stack trace:\n" + r);
        assertFalse(r.err().contains("Exception"), () -> "exception text:\n" + r);
        assertFalse(r.err().contains("[validation"), () -> "validation messages (leaks at close?):\n" + r);
    }

    private static List<String> errorLines(Cli.Run r) {
        return r.errLines().stream().filter(l -> !Cli.isDemoProgress(l)).toList();
    }

    private static List<String> filesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    // ---- device lost ---------------------------------------------------------------------------------

    @Test
    void deviceLostStopsAtOnceWithOneErrorLineStatus3AndWritesNothing(@TempDir Path dir) throws IOException {
        Cli.Run r = ToolsCli.run("demo", "--headless", "--frames", "1000", "--width", "160", "--height", "90", "--validate",
                "--stats-json", dir.resolve("stats.json").toString(), "--screenshot", dir.resolve("shot.png").toString(),
                "--graph-dot", dir.resolve("g.dot").toString(),
                "--set", "cache.dir=" + cache, "--set", "debug.injectFault=device-lost@50");
        System.err.println("device lost run: " + r);
        assertEquals(Main.DEVICE_LOST, r.status(), r::toString);
        assertEquals(3, r.status(), "documented exit status for a lost device");
        List<String> errors = errorLines(r);
        assertEquals(1, errors.size(), () -> "one error line expected besides the progress lines:\n" + r);
        assertTrue(errors.get(0).startsWith("tally demo: vulkan: device lost at submission 50 "), errors.get(0));
        assertTrue(errors.get(0).contains("VK_ERROR_DEVICE_LOST"), errors.get(0));
        assertNoTraceOrValidation(r);
        assertEquals("", r.out(), "no summary and no 'wrote' lines after a failure");
        assertTrue(r.millis() < 5_000, () -> "hang guard: took " + r.millis() + " ms");
        assertEquals(List.of(), filesIn(dir), "no stats, screenshot, graph or temporary file after a lost device");
    }

    @ParameterizedTest(name = "async.mode={0}")
    @ValueSource(strings = {"on", "auto"})
    void deviceLostReachesFramesSubmittedInBatches(String asyncMode) {
        Cli.Run r = ToolsCli.run("demo", "--headless", "--frames", "200", "--width", "64", "--height", "36", "--validate",
                "--set", "cache.dir=" + cache, "--set", "async.mode=" + asyncMode, "--set", "debug.asyncOneQueue=true",
                "--set", "debug.injectFault=device-lost@20");
        assertEquals(3, r.status(), r::toString);
        List<String> errors = errorLines(r);
        assertEquals(1, errors.size(), () -> "one error line expected besides the progress lines:\n" + r);
        assertTrue(errors.get(0).startsWith("tally demo: vulkan: device lost at submission 20 "), errors.get(0));
        assertTrue(errors.get(0).contains("injected by debug.injectFault=device-lost@20"), errors.get(0));
        assertNoTraceOrValidation(r);
    }

    @Test
    void deviceLostReachesGraphcheck() {
        Cli.Run r = ToolsCli.run("graphcheck", "--graphs", "2", "--frames", "3", "--set", "cache.dir=" + cache,
                "--set", "debug.injectFault=device-lost@5");
        assertEquals(3, r.status(), r::toString);
        assertTrue(r.err().contains("device lost at submission 5 "), r::toString);
        assertNoTraceOrValidation(r);
    }

    @Test
    void deviceLostOnTheFirstSubmissionOfReduceIsStatus3Too(@TempDir Path dir) throws IOException {
        Path f = floats(dir.resolve("x.f32"), 1f, 2f, 3f);
        Cli.Run r = ToolsCli.run("reduce", "--validate", "--set", "cache.dir=" + cache, "--set", "debug.injectFault=device-lost@1", f.toString());
        assertEquals(3, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().startsWith("tally reduce: vulkan: device lost at submission 1 "), r::toString);
        assertNoTraceOrValidation(r);
        assertEquals("", r.out());
    }

    // ---- out of memory -------------------------------------------------------------------------------

    private static Path floats(Path file, float... values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return Files.write(file, b.array());
    }

    @Test
    void outOfMemoryNamesTheSizeAndTheBudgetAndTheProcessStillReduces(@TempDir Path dir) throws IOException {
        float[] halves = new float[1 << 18];   // 1 MiB of 0.5
        java.util.Arrays.fill(halves, 0.5f);
        Path f = floats(dir.resolve("halves.f32"), halves);
        // oom@1: the first buffer the run allocates is the input array.
        Cli.Run r = ToolsCli.run("reduce", "--validate", "--set", "cache.dir=" + cache, "--set", "debug.injectFault=oom@1", f.toString());
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        String line = r.errLines().get(0);
        for (String part : new String[]{"tally reduce: vulkan: allocating buffer 'reduce.input'", "of 1048576 bytes", "budget", "MiB used of",
                "VK_ERROR_OUT_OF_DEVICE_MEMORY"}) {
            assertTrue(line.contains(part), () -> "expected \"" + part + "\" in: " + line);
        }
        assertNoTraceOrValidation(r);
        assertEquals("", r.out());

        // The same process, right after: a small reduction works.
        Cli.Run ok = ToolsCli.run("reduce", "--validate", "--set", "cache.dir=" + cache, f.toString());
        assertEquals(0, ok.status(), ok::toString);
        assertEquals(List.of("sum 131072.0"), ok.outLines());
        assertEquals("", ok.err());
    }

    /** The error line for a failed allocation names the buffer: "allocating buffer 'x' of N bytes" or an aliasing buffer 'x'. */
    private static final java.util.regex.Pattern FAILED_ALLOCATION = java.util.regex.Pattern.compile(
            "tally demo: vulkan: (allocating buffer '([^']+)' of \\d+ bytes \\(budget [^)]*\\) failed"
                    + "|vmaCreateAliasingBuffer\\('([^']+)', \\d+ bytes, budget [^)]*\\) failed): .*VK_ERROR_OUT_OF_DEVICE_MEMORY.*");

    @Test
    void outOfMemoryAtAnyAllocationIsOneLineStatus2NoLeakAndWritesNothing(@TempDir Path dir) throws IOException {
        // Every buffer allocation of a short run fails in turn: whichever it is, and whatever the order in
        // which the demo builds things, the run stops with one line naming that allocation, releases
        // everything it made (no leak report at shutdown) and writes no file. Past the last allocation the
        // same run succeeds.
        java.util.Set<String> named = new java.util.TreeSet<>();
        int firstSuccess = -1;
        for (int n = 1; n <= 60 && firstSuccess < 0; n++) {
            Path out = Files.createDirectories(dir.resolve("oom" + n));
            Cli.Run r = ToolsCli.run("demo", "--headless", "--frames", "3", "--width", "8", "--height", "8", "--validate",
                    "--stats-json", out.resolve("stats.json").toString(), "--screenshot", out.resolve("shot.png").toString(),
                    "--set", "cache.dir=" + cache, "--set", "debug.injectFault=oom@" + n);
            String label = "oom@" + n + ": " + r;
            if (r.status() == 0) {
                firstSuccess = n;
                assertEquals(Set.of("stats.json", "shot.png"), Set.copyOf(filesIn(out)), label);
                break;
            }
            assertEquals(2, r.status(), label);
            List<String> errors = errorLines(r);
            assertEquals(1, errors.size(), () -> "one line, no leak report: " + label);
            java.util.regex.Matcher m = FAILED_ALLOCATION.matcher(errors.get(0));
            assertTrue(m.matches(), label);
            named.add(m.group(2) != null ? m.group(2) : m.group(3));
            assertNoTraceOrValidation(r);
            assertEquals(List.of(), filesIn(out), label);
        }
        assertTrue(firstSuccess > 5, "the run makes several allocations before its third frame ends: " + firstSuccess);
        assertTrue(named.size() >= 5, () -> "failures at different allocations: " + named);
    }

    // ---- SIGTERM -------------------------------------------------------------------------------------

    @Test
    void sigtermDuringAHeadlessRunLeavesWholeFilesAndNoTemporaries(@TempDir Path dir, @TempDir Path logs) throws Exception {
        Path stats = dir.resolve("stats.json");
        Path shot = dir.resolve("shot.png");
        Path outLog = logs.resolve("stdout.txt");
        Path errLog = logs.resolve("stderr.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xss4m", "-cp", System.getProperty("java.class.path"), "dev.tally.demo.Main",
                "demo", "--headless", "--frames", "100000", "--fixed-dt", "0.01", "--width", "160", "--height", "90",
                "--stats-json", stats.toString(), "--screenshot", shot.toString(), "--set", "cache.dir=" + cache));
        // Files, not pipes: what the child prints while the JVM shuts down must not race the parent's readers.
        Process p = new ProcessBuilder(command).redirectOutput(outLog.toFile()).redirectError(errLog.toFile()).start();
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.readString(errLog, StandardCharsets.UTF_8).lines().anyMatch(l -> l.startsWith("frame "))) {
                assertTrue(p.isAlive(), () -> "the demo ended before its first status line:\n" + read(errLog));
                assertTrue(System.nanoTime() < deadline, () -> "no status line within 60 s:\n" + read(errLog));
                Thread.sleep(50);
            }
            // The loop is running (DemoApp prints one status line per second).
            long t0 = System.nanoTime();
            p.destroy();   // SIGTERM
            boolean exited = p.waitFor(10, TimeUnit.SECONDS);
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(exited, () -> "still running 10 s after SIGTERM; stderr:\n" + read(errLog));
            String out = read(outLog);
            String err = read(errLog);
            String report = "exit " + p.exitValue() + " after " + millis + " ms\n--- stdout\n" + out + "--- stderr\n" + err;
            System.err.println("SIGTERM run: " + report);
            assertEquals(143, p.exitValue(), () -> "the JVM's status for SIGTERM:\n" + report);
            assertFalse(err.contains("\tat ") || err.contains("Exception"), report);
            assertFalse(err.lines().anyMatch(l -> l.startsWith("tally ")), () -> "no error:\n" + report);

            // Each file is complete or absent; this demo writes both on an early stop.
            assertEquals(Set.of("stats.json", "shot.png"), Set.copyOf(filesIn(dir)), () -> "no temporary files left:\n" + report);
            String json = Files.readString(stats, StandardCharsets.UTF_8);
            JsonCheck.validate(json);
            assertTrue(json.matches("(?s).*\"frames\": [1-9][0-9]*.*"), json);
            BufferedImage img = ImageIO.read(shot.toFile());
            assertNotNull(img, "a PNG ImageIO can read");
            assertEquals(160, img.getWidth());
            assertEquals(90, img.getHeight());
            assertTrue(out.contains("wrote " + shot) && out.contains("wrote " + stats), report);
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** A strict JSON syntax check (RFC 8259), enough to tell a whole document from a cut one. */
    static final class JsonCheck {
        private final String s;
        private int i;

        private JsonCheck(String s) {
            this.s = s;
        }

        static void validate(String json) {
            JsonCheck c = new JsonCheck(json);
            c.ws();
            c.value();
            c.ws();
            if (c.i != json.length()) {
                throw c.error("trailing text");
            }
        }

        private AssertionError error(String what) {
            return new AssertionError("invalid JSON at " + i + ": " + what + " in: " + s);
        }

        private void ws() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private char peek() {
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            return s.charAt(i);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            i++;
        }

        private void value() {
            char c = peek();
            switch (c) {
                case '{' -> {
                    i++;
                    ws();
                    if (peek() == '}') {
                        i++;
                        return;
                    }
                    while (true) {
                        ws();
                        string();
                        ws();
                        expect(':');
                        ws();
                        value();
                        ws();
                        if (peek() == ',') {
                            i++;
                            continue;
                        }
                        expect('}');
                        return;
                    }
                }
                case '[' -> {
                    i++;
                    ws();
                    if (peek() == ']') {
                        i++;
                        return;
                    }
                    while (true) {
                        ws();
                        value();
                        ws();
                        if (peek() == ',') {
                            i++;
                            continue;
                        }
                        expect(']');
                        return;
                    }
                }
                case '"' -> string();
                case 't' -> literal("true");
                case 'f' -> literal("false");
                case 'n' -> literal("null");
                default -> number();
            }
        }

        private void literal(String word) {
            if (!s.startsWith(word, i)) {
                throw error("expected " + word);
            }
            i += word.length();
        }

        private void string() {
            expect('"');
            while (true) {
                char c = peek();
                i++;
                if (c == '"') {
                    return;
                }
                if (c < 0x20) {
                    throw error("control character in string");
                }
                if (c == '\\') {
                    char e = peek();
                    i++;
                    if (e == 'u') {
                        for (int k = 0; k < 4; k++) {
                            if (Character.digit(peek(), 16) < 0) {
                                throw error("bad \\u escape");
                            }
                            i++;
                        }
                    } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                        throw error("bad escape");
                    }
                }
            }
        }

        private void number() {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?").matcher(s);
            m.region(i, s.length());
            if (!m.lookingAt()) {
                throw error("expected a value");
            }
            i = m.end();
        }
    }
}

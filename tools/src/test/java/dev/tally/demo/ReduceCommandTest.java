package dev.tally.demo;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./tally reduce} end to end through {@link Main#run}: output formats, identities of an empty
 * input, NaN, and one-line errors with exit status 2. Every GPU run is validated (--validate).
 */
class ReduceCommandTest {
    /** Shared SPIR-V and pipeline cache: later runs skip the shader compile; kept out of the user's home. */
    @TempDir
    static Path cacheDir;
    @TempDir
    Path dir;

    private static Path one23;

    @BeforeAll
    static void sharedInput() throws IOException {
        one23 = writeFloats(cacheDir.resolve("one23.f32"), 1f, 2f, 3f);
    }

    private static Path writeFloats(Path file, float... values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return Files.write(file, b.array());
    }

    private Path floats(String name, float... values) throws IOException {
        return writeFloats(dir.resolve(name), values);
    }

    /** Runs the CLI through the shared in-process runner, logging each run to the test output. */
    private static Cli.Run runWithInput(byte[] stdin, String... args) {
        Cli.Run r = ToolsCli.run(stdin, args);
        System.err.println("tally " + String.join(" ", args) + " -> " + r);
        return r;
    }

    /** A validated GPU run of {@code reduce}. */
    private static Cli.Run reduce(String... args) {
        List<String> all = new ArrayList<>(List.of("reduce", "--validate", "--set", "cache.dir=" + cacheDir));
        all.addAll(Arrays.asList(args));
        return runWithInput(null, all.toArray(String[]::new));
    }

    private static void assertSucceeded(Cli.Run r) {
        assertEquals(0, r.status(), r::toString);
        assertFalse(r.err().contains("[validation"), () -> "validation reported problems:\n" + r);
        assertEquals("", r.err(), () -> "nothing on stderr:\n" + r);
    }

    /** Status 2 and exactly one stderr line containing every fragment; nothing on stdout. */
    private static void assertUserError(Cli.Run r, String... fragments) {
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), () -> "exactly one stderr line:\n" + r);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally reduce: "), line);
        for (String f : fragments) {
            assertTrue(line.contains(f), () -> "expected \"" + f + "\" in: " + line);
        }
        assertEquals("", r.out(), () -> "nothing on stdout:\n" + r);
    }

    // ---- results -------------------------------------------------------------------------------------

    @Test
    void plainSumOfOneTwoThree() {
        Cli.Run r = reduce(one23.toString());
        assertSucceeded(r);
        assertEquals(List.of("sum 6.0"), r.outLines());
    }

    @ParameterizedTest
    @CsvSource({"min, -1.5", "max, 4.0", "mean, 2.0", "sum, 8.0"})
    void eachOpInPlainText(String op, String expected) throws IOException {
        Path f = floats("mixed.f32", 4f, -1.5f, 2.5f, 3f);
        Cli.Run r = reduce("--op", op, f.toString());
        assertSucceeded(r);
        assertEquals(List.of(op + " " + expected), r.outLines());
    }

    @Test
    void jsonIsOneLineWithOpCountValueDeviceAndGpuTime() {
        Cli.Run r = reduce("--json", one23.toString());
        assertSucceeded(r);
        assertEquals(1, r.outLines().size(), r::toString);
        String line = r.outLines().get(0);
        Matcher m = Pattern.compile("\\{\"op\":\"sum\",\"count\":3,\"value\":6\\.0,\"device\":\"((?:[^\"\\\\]|\\\\.)+)\","
                + "\"gpuMillis\":(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|\"NaN\")}").matcher(line);
        assertTrue(m.matches(), () -> "unexpected JSON: " + line);
        assertFalse(m.group(1).isBlank(), "device name");
        if (!m.group(2).startsWith("\"")) {
            assertTrue(Double.parseDouble(m.group(2)) >= 0, () -> "gpuMillis " + m.group(2));
        }
    }

    /** The "value" of a one-line JSON result, as float64. */
    private static double jsonValue(Cli.Run r) {
        Matcher m = Pattern.compile("\"value\":([-+0-9.eE]+),").matcher(r.out());
        assertTrue(m.find(), r::toString);
        return Double.parseDouble(m.group(1));
    }

    @ParameterizedTest
    @CsvSource({"min", "max"})
    void jsonValueIsTheExactDoubleOfTheResult(String op) throws IOException {
        // Values with all 24 mantissa bits in use: their shortest float text is not their double value.
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        float[] values = new float[1000];
        double expected = op.equals("min") ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        for (int i = 0; i < values.length; i++) {
            values[i] = Float.intBitsToFloat(0x3f000000 | rnd.nextInt(1 << 23));   // in [0.5, 1)
            expected = op.equals("min") ? Math.min(expected, values[i]) : Math.max(expected, values[i]);
        }
        Cli.Run r = reduce("--json", "--op", op, floats("bits.f32", values).toString());
        assertSucceeded(r);
        assertEquals(expected, jsonValue(r), 0.0, r::toString);
        // The plain text stays the float's short spelling.
        Cli.Run plain = reduce("--op", op, dir.resolve("bits.f32").toString());
        assertEquals(List.of(op + " " + Float.toString((float) expected)), plain.outLines());
    }

    @ParameterizedTest
    @CsvSource({"sum, 0.0", "min, Infinity", "max, -Infinity", "mean, NaN"})
    void emptyFileGivesEachOpsIdentity(String op, String expected) throws IOException {
        Path empty = Files.write(dir.resolve("empty.f32"), new byte[0]);
        Cli.Run r = reduce("--op", op, empty.toString());
        assertSucceeded(r);
        assertEquals(List.of(op + " " + expected), r.outLines());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "sum  | 0.0",
            "min  | \"Infinity\"",
            "max  | \"-Infinity\"",
            "mean | \"NaN\""})
    void emptyFileInJsonSpellsNonFiniteValuesAsStrings(String op, String value) throws IOException {
        Path empty = Files.write(dir.resolve("empty.f32"), new byte[0]);
        Cli.Run r = reduce("--json", "--op", op, empty.toString());
        assertSucceeded(r);
        assertEquals(1, r.outLines().size(), r::toString);
        String line = r.outLines().get(0);
        assertTrue(line.startsWith("{\"op\":\"" + op + "\",\"count\":0,\"value\":" + value + ",\"device\":"),
                () -> "unexpected JSON: " + line);
    }

    @ParameterizedTest
    @CsvSource({"sum", "max", "min"})
    void aNaNInTheInputGivesNaN(String op) throws IOException {
        Path f = floats("nan.f32", 1f, Float.NaN, 3f, -2f, 5f);
        Cli.Run r = reduce("--op", op, f.toString());
        assertSucceeded(r);
        assertEquals(List.of(op + " NaN"), r.outLines());
    }

    @Test
    void twoPassReductionIsCorrectAndValidationClean() {
        // singleDispatchMax=0 forces the two-dispatch path with its barrier between the passes.
        Cli.Run r = reduce("--set", "reduce.singleDispatchMax=0", "--op", "mean", one23.toString());
        assertSucceeded(r);
        assertEquals(List.of("mean 2.0"), r.outLines());
    }

    @Test
    void validateFlagReallyTurnsValidationOn() {
        // The clean-stderr checks above mean something only if --validate reaches the context.
        Cli.Run r = runWithInput(null, "info", "--validate", "--set", "cache.dir=" + cacheDir);
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("validation: on"), r::toString);
        assertFalse(r.err().contains("[validation"), r::toString);
    }

    // ---- streams: read to the end, whatever the path ----------------------------------------------------

    /** 300,000 ones then a 7: the sum and count are exact in f32 and a reader that stops early misses the 7. */
    private static byte[] onesThenSeven() {
        ByteBuffer b = ByteBuffer.allocate(4 * 300_001).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 300_000; i++) {
            b.putFloat(1f);
        }
        return b.putFloat(7f).array();
    }

    private static void assertOnesThenSeven(Cli.Run sum) {
        assertSucceeded(sum);
        assertTrue(sum.out().startsWith("{\"op\":\"sum\",\"count\":300001,\"value\":300007.0,"), sum::toString);
    }

    /** Writes {@code data} into the FIFO on another thread (opening a FIFO blocks until both ends are open). */
    private static Thread feed(Path fifo, byte[] data) {
        Thread t = new Thread(() -> {
            try {
                Files.write(fifo, data);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "fifo-writer");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void namedFifoIsReadToItsEnd() throws Exception {
        Path fifo = dir.resolve("values.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        Thread writer = feed(fifo, onesThenSeven());
        Cli.Run sum = reduce("--json", fifo.toString());
        writer.join(10_000);
        assertOnesThenSeven(sum);
    }

    @Test
    void processSubstitutionIsReadToItsEnd() throws Exception {
        // bash gives the command a /dev/fd/N path to a pipe: a separate JVM, as a shell user runs it.
        Path f = Files.write(dir.resolve("values.f32"), onesThenSeven());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "exec \"$0\" -Xss4m -cp \"$1\" dev.tally.tools.ToolsMain reduce --json --validate --set cache.dir=\"$2\" <(cat \"$3\")";
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = new ProcessBuilder("bash", "-c", cmd, java, System.getProperty("java.class.path"), cacheDir.toString(), f.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "reduce <(cat f) did not finish");
        assertOnesThenSeven(new Cli.Run(p.exitValue(), Files.readString(out), Files.readString(err), 0));
    }

    @Test
    void aFileReportingNoSizeIsReadToItsEnd() throws IOException {
        // /proc files report size 0 but have content: the bytes read count, not the size.
        Path proc = Path.of("/proc/self/stat");
        assertEquals(0, Files.size(proc), "the premise: /proc reports no size");
        Cli.Run r = reduce("--json", proc.toString());
        Matcher m = Pattern.compile("\"count\":(\\d+)|size (\\d+) bytes").matcher(r.out() + r.err());
        assertTrue(m.find(), r::toString);
        long seen = m.group(1) != null ? 4 * Long.parseLong(m.group(1)) : Long.parseLong(m.group(2));
        assertTrue(seen > 0, () -> "read nothing from " + proc + ":\n" + r);
    }

    @Test
    void streamPastTheBudgetIsRefusedWhileReadingWithoutReadingOn() {
        long limit = 1 << 20;
        long[] served = new long[1];
        // Endless for any honest reader; a reader that ignores the limit gets an I/O error instead of all the memory.
        java.io.InputStream endless = new java.io.InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (served[0] > 8 * limit) {
                    throw new IOException("the reader went on past the limit");
                }
                java.util.Arrays.fill(b, off, off + len, (byte) 0);
                served[0] += len;
                return len;
            }
        };
        UserInputException e = assertThrows(UserInputException.class,
                () -> HostBytes.read("endless", endless, limit, read -> new UserInputException("endless: at least " + read + " bytes")));
        assertTrue(e.getMessage().startsWith("endless: at least "), e.getMessage());
        long reported = Long.parseLong(e.getMessage().replaceAll("\\D", ""));
        assertTrue(reported > limit, e.getMessage());
        assertTrue(served[0] <= limit + (1 << 16), () -> "read on past the limit: " + served[0] + " bytes");
    }

    @Test
    void streamWithinTheLimitIsKeptWhole() throws IOException {
        byte[] data = onesThenSeven();
        try (HostBytes held = HostBytes.read("ones", new java.io.ByteArrayInputStream(data), data.length, read -> new IllegalStateException("limit passed at " + read))) {
            assertEquals(data.length, held.bytes());
            assertArrayEquals(data, held.stream().readAllBytes());
        }
    }

    // ---- errors: status 2, one stderr line -------------------------------------------------------------

    @Test
    void missingFile() {
        Path missing = dir.resolve("missing.f32");
        assertUserError(reduce(missing.toString()), missing.toString(), "no such file");
    }

    @Test
    void directoryInsteadOfFile() {
        assertUserError(reduce(dir.toString()), dir.toString(), "directory");
    }

    @Test
    void sizeNotAMultipleOfFour() throws IOException {
        Path odd = Files.write(dir.resolve("odd.f32"), new byte[]{0, 0, (byte) 0x80, 0x3f, 1});
        assertUserError(reduce(odd.toString()), odd.toString(), "5 bytes", "multiple of 4");
    }

    @Test
    void unknownOp() {
        assertUserError(reduce("--op", "foo", one23.toString()), "--op", "foo", "sum, min, max, mean or stats");
    }

    @Test
    void unknownFlag() {
        assertUserError(reduce("--frobnicate", one23.toString()), "--frobnicate");
    }

    @Test
    void missingFileArgument() {
        assertUserError(reduce(), "FILE");
    }

    @Test
    void badConfigOverride() {
        assertUserError(reduce("--set", "reduce.unroll=9", one23.toString()), "--set", "reduce.unroll", "1..8");
    }

    @Test
    void badConfigFileNamesTheFileAndLine() throws IOException {
        Path conf = Files.writeString(dir.resolve("bad.conf"), "# tally\nframes.inFlight = 99\n");
        assertUserError(reduce("--config", conf.toString(), one23.toString()), conf + ":2:", "frames.inFlight", "1..4");
    }

    @Test
    void standardInputWithPartialFloat() {
        Cli.Run r = runWithInput(new byte[]{1, 2, 3, 4, 5, 6}, "reduce", "--validate", "-");
        assertUserError(r, "standard input", "6 bytes", "multiple of 4");
    }

    @Test
    void standardInputIsReduced() {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(2.5f).putFloat(-0.5f);
        Cli.Run r = runWithInput(b.array(), "reduce", "--validate", "--set", "cache.dir=" + cacheDir, "--op", "sum", "-");
        assertSucceeded(r);
        assertEquals(List.of("sum 2.0"), r.outLines());
    }
}

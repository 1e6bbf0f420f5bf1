package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./tally reduce} on hostile input: empty and truncated files, NaN and infinities, a pipe that
 * fails or ends mid-float, and a file larger than the device's memory. Results follow IEEE 754; every
 * refusal is exit status 2 with one line on stderr. GPU runs are validated.
 */
class ReduceHostileInputTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;

    private static Cli.Run reduce(String... args) {
        return reduceWithInput(null, args);
    }

    private static Cli.Run reduceWithInput(InputStream stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("reduce", "--validate", "--set", "cache.dir=" + cache));
        all.addAll(Arrays.asList(args));
        Cli.Run r = ToolsCli.run(stdin, all.toArray(String[]::new));
        System.err.println("tally " + String.join(" ", all) + " -> " + r);
        return r;
    }

    private Path floats(String name, float... values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return Files.write(dir.resolve(name), b.array());
    }

    private Path filled(String name, int count, float value) throws IOException {
        float[] v = new float[count];
        Arrays.fill(v, value);
        return floats(name, v);
    }

    private static void assertResult(Cli.Run r, String op, String value) {
        assertEquals(0, r.status(), r::toString);
        assertEquals("", r.err(), () -> "nothing on stderr (no validation messages):\n" + r);
        assertEquals(List.of(op + " " + value), r.outLines(), r::toString);
    }

    /** Status 2, exactly one stderr line starting "tally reduce: " and containing every fragment; nothing on stdout. */
    private static void assertRefused(Cli.Run r, String... fragments) {
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), () -> "exactly one stderr line:\n" + r);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally reduce: "), line);
        for (String f : fragments) {
            assertTrue(line.contains(f), () -> "expected \"" + f + "\" in: " + line);
        }
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    // ---- empty and truncated ---------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"sum, 0.0", "min, Infinity", "max, -Infinity", "mean, NaN"})
    void emptyFileGivesTheIdentity(String op, String expected) throws IOException {
        Path empty = Files.write(dir.resolve("empty.f32"), new byte[0]);
        assertResult(reduce("--op", op, empty.toString()), op, expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 7, 4099})
    void truncatedFileIsRefusedWithItsSize(int bytes) throws IOException {
        Path odd = Files.write(dir.resolve("odd.f32"), new byte[bytes]);
        assertRefused(reduce(odd.toString()), odd.toString(), bytes + " bytes", "multiple of 4");
    }

    // ---- NaN and infinities: IEEE 754 says ---------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"sum", "min", "max", "mean"})
    void allNaNGivesNaN(String op) throws IOException {
        assertResult(reduce("--op", op, filled("nan.f32", 10_000, Float.NaN).toString()), op, "NaN");
    }

    @ParameterizedTest
    @CsvSource({"sum, Infinity", "min, Infinity", "max, Infinity", "mean, Infinity"})
    void allPositiveInfinity(String op, String expected) throws IOException {
        assertResult(reduce("--op", op, filled("inf.f32", 10_000, Float.POSITIVE_INFINITY).toString()), op, expected);
    }

    @ParameterizedTest
    @CsvSource({"sum, -Infinity", "min, -Infinity", "max, -Infinity", "mean, -Infinity"})
    void allNegativeInfinity(String op, String expected) throws IOException {
        assertResult(reduce("--op", op, filled("ninf.f32", 10_000, Float.NEGATIVE_INFINITY).toString()), op, expected);
    }

    @ParameterizedTest
    @CsvSource({"sum, NaN", "mean, NaN", "min, -Infinity", "max, Infinity"})
    void bothInfinitiesSumToNaN(String op, String expected) throws IOException {
        // +Inf + -Inf is an invalid operation: NaN. min and max are still defined.
        float[] v = new float[5_000];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 2 == 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
        }
        assertResult(reduce("--op", op, floats("both.f32", v).toString()), op, expected);
    }

    @ParameterizedTest
    @CsvSource({"sum, Infinity", "max, 3.0E38", "min, 3.0E38"})
    void finiteValuesThatOverflowSumToInfinity(String op, String expected) throws IOException {
        assertResult(reduce("--op", op, filled("big.f32", 4_096, 3.0e38f).toString()), op, expected);
    }

    /** {@code --op stats} treats infinities as the sum does; the variance of a set holding one is NaN. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "inf 1 2     | sum Infinity  | min 1.0        | max Infinity | mean Infinity  | variance NaN",
            "inf         | sum Infinity  | min Infinity   | max Infinity | mean Infinity  | variance NaN",
            "inf x1000   | sum Infinity  | min Infinity   | max Infinity | mean Infinity  | variance NaN",
            "-inf 1 2    | sum -Infinity | min -Infinity  | max 2.0      | mean -Infinity | variance NaN",
            "inf -inf 1  | sum NaN       | min -Infinity  | max Infinity | mean NaN       | variance NaN",
            "nan 1 inf   | sum NaN       | min NaN        | max NaN      | mean NaN       | variance NaN",
            "3e38 x4096  | sum Infinity  | min 3.0E38     | max 3.0E38   | mean Infinity  | variance 0.0"})
    void statsOfInfinitiesFollowTheSum(String input, String sum, String min, String max, String mean, String variance) throws IOException {
        List<Float> values = new ArrayList<>();
        for (String word : input.trim().split(" ")) {
            if (word.startsWith("x")) {
                float last = values.get(values.size() - 1);
                for (int i = 1; i < Integer.parseInt(word.substring(1)); i++) {
                    values.add(last);
                }
            } else {
                values.add(word.equals("nan") ? Float.NaN : Float.parseFloat(word.replace("inf", "Infinity")));
            }
        }
        float[] v = new float[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        Cli.Run r = reduce("--op", "stats", floats("stats.f32", v).toString());
        assertEquals(0, r.status(), r::toString);
        List<String> lines = r.outLines();
        // Equal values that overflow the sum still have no spread: variance 0.
        assertEquals(List.of("count " + v.length, sum.trim(), min.trim(), max.trim(), mean.trim(), variance.trim()), lines, r::toString);
    }

    @Test
    void anUnknownOpListsEveryOpIncludingStats() throws IOException {
        assertRefused(reduce("--op", "median", floats("one.f32", 1f).toString()), "--op", "'median'", "sum, min, max, mean or stats");
    }

    @Test
    void anInjectedOutOfMemoryNamesTheSizeAndTheBudget() throws IOException {
        Cli.Run r = reduce("--set", "debug.injectFault=oom@1", floats("four.f32", 1f, 2f, 3f, 4f).toString());
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        String line = r.errLines().get(0);
        assertTrue(line.matches(".*\\b\\d+ bytes\\b.*") && line.contains("budget"), line);
    }

    /** A file that shrinks between being opened and read (another program truncating it) is refused with both sizes. */
    @Test
    void aFileTruncatedWhileReadSaysSoWithBothSizes() {
        ReduceCommand.Source shrunk = new ReduceCommand.Source("data.f32", 4099, () -> new java.io.ByteArrayInputStream(new byte[2051]));
        UserInputException e = assertThrows(UserInputException.class, () -> ReduceCommand.checkReadWhole(shrunk, 2051));
        assertTrue(e.getMessage().startsWith("data.f32: truncated while being read: 4099 bytes when opened, only 2051"), e.getMessage());
        // Reading more than the size is fine: /proc files say 0 and hold text.
        ReduceCommand.checkReadWhole(new ReduceCommand.Source("/proc/x", 0, () -> null), 1400);
        ReduceCommand.checkReadWhole(new ReduceCommand.Source("standard input", -1, () -> null), 8);
    }

    // ---- standard input that fails or ends early ---------------------------------------------------------

    /** Hands out {@code data}, then fails as a broken pipe would. */
    private static InputStream failingAfter(byte[] data, String message) {
        return new InputStream() {
            private int pos;

            @Override
            public int read() throws IOException {
                if (pos < data.length) {
                    return data[pos++] & 0xff;
                }
                throw new IOException(message);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos >= data.length) {
                    throw new IOException(message);
                }
                int n = Math.min(len, data.length - pos);
                System.arraycopy(data, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    @Test
    void pipeThatFailsMidwayIsRefused() {
        byte[] sixBytes = {0, 0, (byte) 0x80, 0x3f, 0, 0};
        Cli.Run r = reduceWithInput(failingAfter(sixBytes, "Broken pipe"), "-");
        assertRefused(r, "standard input", "read failed after 6 bytes", "Broken pipe");
    }

    @Test
    void pipeThatEndsMidFloatIsRefused() {
        byte[] tenBytes = new byte[10];
        Cli.Run r = reduceWithInput(new java.io.ByteArrayInputStream(tenBytes), "-");
        assertRefused(r, "standard input", "10 bytes", "multiple of 4");
    }

    @Test
    void pipeThatFailsAtOnceIsRefused() {
        Cli.Run r = reduceWithInput(failingAfter(new byte[0], "Stream closed"), "-");
        assertRefused(r, "standard input", "after 0 bytes", "Stream closed");
    }

    @Test
    void emptyPipeGivesTheIdentity() {
        assertResult(reduceWithInput(new java.io.ByteArrayInputStream(new byte[0]), "-"), "sum", "0.0");
    }

    // ---- larger than the device ------------------------------------------------------------------------

    /** Device-local memory in bytes, as ./tally info reports it. */
    private static long deviceLocalBytes() {
        Cli.Run info = ToolsCli.run("info", "--set", "cache.dir=" + cache);
        assertEquals(0, info.status(), info::toString);
        Matcher m = Pattern.compile("device-local memory: (\\d+) MiB").matcher(info.out());
        assertTrue(m.find(), info::toString);
        return Long.parseLong(m.group(1)) << 20;
    }

    @Test
    void fileLargerThanTheDeviceIsRefusedUpFrontNamingSizeAndBudget() throws IOException {
        // Sparse: costs no disk. At least 64 GiB, and surely more than the device has.
        long size = Math.max(64L << 30, 2 * deviceLocalBytes()) & ~3L;
        Path huge = dir.resolve("huge.f32");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(size);
        }
        // oom@1 makes any allocation fail with a different message: the refusal must come before allocating.
        long t0 = System.nanoTime();
        Cli.Run r = reduce("--set", "debug.injectFault=oom@1", huge.toString());
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertRefused(r, huge.toString(), size + " bytes", "device memory budget", "free on ", "MiB budget");
        assertFalse(r.err().contains("allocating buffer"), "refused before any allocation: " + r);
        assertTrue(millis < 30_000, "nothing was read: " + millis + " ms");

        // Without the hook as well (the normal path).
        assertRefused(reduce(huge.toString()), size + " bytes", "device memory budget");
    }

    @Test
    void fileNameThatCannotBeAPathIsRefused() {
        assertRefused(reduce("bad\u0000name.f32"), "not a usable file name");
    }
}

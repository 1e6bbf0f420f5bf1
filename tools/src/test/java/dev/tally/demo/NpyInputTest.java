package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./tally reduce} on NumPy .npy files. The files are written here, byte by byte from the format's
 * description (magic, version, little-endian header length, a dict literal padded to 64 bytes), so the
 * tests need no numpy.
 */
class NpyInputTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;

    private static final float[] VALUES = randomValues();

    private static float[] randomValues() {
        SplittableRandom rnd = new SplittableRandom(7);
        float[] v = new float[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) rnd.nextDouble(-100, 100);
        }
        return v;
    }

    private static byte[] littleEndian(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    /** A .npy file as numpy writes it: the dict, padded with spaces and a newline to a multiple of 64 bytes. */
    static byte[] npy(int major, String dict, byte[] data) {
        int lengthBytes = major == 1 ? 2 : 4;
        int unpadded = 6 + 2 + lengthBytes + dict.length() + 1;
        String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        long len = header.length();
        for (int i = 0; i < lengthBytes; i++) {
            out.write((int) (len >>> (8 * i)) & 0xff);
        }
        out.writeBytes(header.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(data);
        return out.toByteArray();
    }

    static String dict(String descr, boolean fortran, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
    }

    private static Cli.Run reduce(byte[] stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("reduce", "--validate", "--set", "cache.dir=" + cache));
        all.addAll(Arrays.asList(args));
        Cli.Run r = ToolsCli.run(stdin, all.toArray(String[]::new));
        System.err.println("tally " + String.join(" ", all) + " -> " + r);
        return r;
    }

    /** The JSON line without its timing, which differs from run to run. */
    private static String result(Cli.Run r) {
        assertEquals(0, r.status(), r::toString);
        assertEquals("", r.err(), r::toString);
        return r.out().replaceAll(",\"gpuMillis\":[^}]*}", "}");
    }

    private static void assertRefused(Cli.Run r, String... fragments) {
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), () -> "one line:\n" + r);
        assertEquals("", r.out(), r::toString);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally reduce: "), line);
        for (String f : fragments) {
            assertTrue(line.contains(f), () -> "expected \"" + f + "\" in: " + line);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1 | (1000,)     | sum",
            "1 | (10, 100)   | min",
            "2 | (2, 5, 100) | max",
            "3 | (1000,)     | mean",
            "1 | (1000L,)    | sum"})
    void npyGivesTheSameResultAsTheRawFile(int major, String shape, String op) throws IOException {
        Path raw = Files.write(dir.resolve("x.f32"), littleEndian(VALUES));
        Path npy = Files.write(dir.resolve("x.npy"), npy(major, dict("<f4", false, shape), littleEndian(VALUES)));
        String expected = result(reduce(null, "--json", "--op", op, raw.toString()));
        assertTrue(expected.contains("\"count\":1000,"), expected);
        assertEquals(expected, result(reduce(null, "--json", "--op", op, npy.toString())));
    }

    @Test
    void npyThroughAPipeIsRecognisedByItsMagic() {
        String expected = result(reduce(littleEndian(VALUES), "--json", "-"));
        assertEquals(expected, result(reduce(npy(1, dict("<f4", false, "(1000,)"), littleEndian(VALUES)), "--json", "-")));
    }

    @Test
    void scalarAndEmptyShapes() throws IOException {
        Path scalar = Files.write(dir.resolve("scalar.npy"), npy(1, dict("<f4", false, "()"), littleEndian(new float[]{2.5f})));
        assertEquals("sum 2.5\n", reduce(null, scalar.toString()).out());
        Path empty = Files.write(dir.resolve("empty.npy"), npy(1, dict("<f4", false, "(0, 3)"), new byte[0]));
        assertEquals("max -Infinity\n", reduce(null, "--op", "max", empty.toString()).out());
    }

    // ---- refusals: one line naming the file, exit 2 ------------------------------------------------------

    @Test
    void float64IsRefusedNamingTheDtype() throws IOException {
        ByteBuffer doubles = ByteBuffer.allocate(8 * 3).order(ByteOrder.LITTLE_ENDIAN).putDouble(1).putDouble(2).putDouble(3);
        Path f = Files.write(dir.resolve("f64.npy"), npy(1, dict("<f8", false, "(3,)"), doubles.array()));
        assertRefused(reduce(null, f.toString()), f.toString(), "'<f8'", "'<f4'");
    }

    @ParameterizedTest
    @CsvSource({">f4", "<f2", "<i4", "|u1", "<c8"})
    void otherDtypesAreRefused(String descr) throws IOException {
        Path f = Files.write(dir.resolve("other.npy"), npy(1, dict(descr, false, "(4,)"), new byte[16]));
        assertRefused(reduce(null, f.toString()), f.toString(), "'" + descr + "'", "float32");
    }

    @Test
    void fortranOrderIsRefused() throws IOException {
        Path f = Files.write(dir.resolve("fortran.npy"), npy(1, dict("<f4", true, "(2, 3)"), new byte[24]));
        assertRefused(reduce(null, f.toString()), f.toString(), "fortran_order", "C order");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)                       | malformed",
            "{'descr': '<f4', 'fortran_order': False}                                      | keys",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'extra': 1}           | keys",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}                      | negative",
            "{'descr': '<f4', 'fortran_order': False, 'shape': ('a',)}                     | malformed",
            "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}                           | fortran_order",
            "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (3,)}              | dtype",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} trailing              | malformed",
            "not a dict at all                                                             | malformed",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999)} | shape"})
    void malformedHeadersAreRefused(String dict, String fragment) throws IOException {
        Path f = Files.write(dir.resolve("bad.npy"), npy(1, dict, new byte[12]));
        assertRefused(reduce(null, f.toString()), f.toString(), fragment);
    }

    @Test
    void truncatedHeaderAndUnknownVersionAreRefused() throws IOException {
        byte[] whole = npy(1, dict("<f4", false, "(3,)"), new byte[12]);
        Path cut = Files.write(dir.resolve("cut.npy"), Arrays.copyOf(whole, 20));
        assertRefused(reduce(null, cut.toString()), cut.toString(), "ends inside");
        byte[] v9 = whole.clone();
        v9[6] = 9;
        Path nine = Files.write(dir.resolve("v9.npy"), v9);
        assertRefused(reduce(null, nine.toString()), nine.toString(), "version 9.0");
    }

    @Test
    void dataThatDoesNotMatchTheShapeIsRefused() throws IOException {
        Path shorter = Files.write(dir.resolve("short.npy"), npy(1, dict("<f4", false, "(5,)"), littleEndian(new float[]{1, 2, 3})));
        assertRefused(reduce(null, shorter.toString()), shorter.toString(), "12 bytes", "(5,)", "20");
        Path longer = Files.write(dir.resolve("long.npy"), npy(1, dict("<f4", false, "(2,)"), littleEndian(new float[]{1, 2, 3})));
        assertRefused(reduce(null, longer.toString()), longer.toString(), "12 bytes", "(2,)", "8");
    }

    @Test
    void aNpyNameWithoutTheMagicIsRefusedNotReadAsRaw() throws IOException {
        Path f = Files.write(dir.resolve("raw.npy"), littleEndian(new float[]{1, 2, 3}));
        assertRefused(reduce(null, f.toString()), f.toString(), "not a NumPy .npy file");
    }
}

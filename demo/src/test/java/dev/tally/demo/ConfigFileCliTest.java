package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Bad configuration files given to {@code ./tally demo --config FILE}: each is exit status 2 with one
 * stderr line naming the file (and line), the key and what is allowed, and nothing is written.
 * (The parsing rules themselves are unit-tested in the engine's ConfigTest.)
 */
class ConfigFileCliTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;

    private Path conf(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    /** Runs the demo with {@code config}; asserts status 2, one line containing every fragment, no output files. */
    private void assertRejected(Path config, String... fragments) throws IOException {
        assertRejected(true, config, fragments);
    }

    private void assertRejected(boolean noExceptionText, Path config, String... fragments) throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Cli.Run r = Cli.run("demo", "--config", config.toString(), "--headless", "--frames", "1", "--width", "8", "--height", "8",
                "--stats-json", out.resolve("s.json").toString(), "--screenshot", out.resolve("p.png").toString(),
                "--set", "cache.dir=" + cache);
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), () -> "exactly one stderr line:\n" + r);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally demo: "), line);
        for (String f : fragments) {
            assertTrue(line.contains(f), () -> "expected \"" + f + "\" in: " + line);
        }
        assertFalse(r.err().contains("\tat "), r::toString);
        assertFalse(noExceptionText && r.err().contains("Exception"), r::toString);
        assertEquals("", r.out(), r::toString);
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(0, files.count(), "nothing written");
        }
    }

    @Test
    void unknownKeyNamesFileLineKeyAndTheKnownKeys() throws IOException {
        Path f = conf("unknown.conf", "# mine\nframes.inflight = 2\n");
        assertRejected(f, f + ":2:", "unknown key 'frames.inflight'", "known keys:", "frames.inFlight", "debug.injectFault");
    }

    @Test
    void keyFromAnotherProgramIsUnknown() throws IOException {
        Path f = conf("other.conf", "window.width = 800\n");
        assertRejected(f, f + ":1:", "'window.width'", "known keys:");
    }

    @Test
    void integerKeyWithTextIsAWrongType() throws IOException {
        Path f = conf("type.conf", "frames.inFlight = two\n");
        assertRejected(f, f + ":1:", "'frames.inFlight'", "not an integer \"two\"", "an integer in 1..4");
    }

    @Test
    void booleanKeyWithYesIsAWrongType() throws IOException {
        Path f = conf("bool.conf", "\n\nvalidation.enabled = yes\n");
        assertRejected(f, f + ":3:", "'validation.enabled'", "not a boolean \"yes\"", "true or false");
    }

    @Test
    void fractionForAnIntegerKeyIsAWrongType() throws IOException {
        Path f = conf("frac.conf", "readback.slots = 3.5\n");
        assertRejected(f, f + ":1:", "'readback.slots'", "not an integer", "2..16");
    }

    @Test
    void outOfRangeValuesNameTheRange() throws IOException {
        Path f = conf("range.conf", "readback.slots = 17\n");
        assertRejected(f, f + ":1:", "'readback.slots'", "out of range \"17\"", "an integer in 2..16");
        Path g = conf("range2.conf", "reduce.singleDispatchMax = 99999999999999999999\n");
        assertRejected(g, g + ":1:", "'reduce.singleDispatchMax'", "0..1073741824 or auto");
        Path h = conf("range3.conf", "reduce.unroll = -1\n");
        assertRejected(h, h + ":1:", "'reduce.unroll'", "out of range", "1..8 or auto");
    }

    @Test
    void duplicateKeyNamesBothTheKeyAndTheLine() throws IOException {
        Path f = conf("dup.conf", "frames.inFlight = 2\nreadback.slots = 4\nframes.inFlight = 3\n");
        assertRejected(f, f + ":3:", "'frames.inFlight'", "set twice in this file");
    }

    @Test
    void lineWithoutEqualsSignSaysWhatIsExpected() throws IOException {
        Path f = conf("noeq.conf", "frames.inFlight 2\n");
        assertRejected(f, f + ":1:", "expected 'key = value'", "frames.inFlight 2");
    }

    @Test
    void binaryFileIsRefusedAsBinary() throws IOException {
        byte[] junk = new byte[4096];
        new java.util.Random(7).nextBytes(junk);
        junk[100] = 0;
        Path f = Files.write(dir.resolve("binary.conf"), junk);
        assertRejected(f, f.toString(), "binary file", "key = value");
    }

    @Test
    void latin1FileIsRefusedAsNotUtf8() throws IOException {
        Path f = Files.write(dir.resolve("latin1.conf"), "cache.dir = /tmp/caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertRejected(f, f.toString(), "not UTF-8");
    }

    @Test
    void missingFileIsNamed() throws IOException {
        Path f = dir.resolve("nope.conf");
        // Config (engine) words this "(NoSuchFileException)": the class name is the reason it gives.
        assertRejected(false, f, f.toString(), "cannot read config file", "NoSuchFile");
    }

    @Test
    void directoryInsteadOfFileIsNamed() throws IOException {
        Path d = Files.createDirectories(dir.resolve("conf.d"));
        assertRejected(false, d, d.toString(), "cannot read config file");
    }

    // Rules beyond one key's type and range are checked when the runtime opens: they name the key(s) and
    // what is allowed (not the file line: the configuration does not keep where a value came from).

    @Test
    void readbackSlotsMustExceedFramesInFlight() throws IOException {
        Path f = conf("slots.conf", "frames.inFlight = 4\nreadback.slots = 3\n");
        assertRejected(f, "'readback.slots'", "frames.inFlight = 4", "at least 5");
    }

    @Test
    void workgroupSizeMustBeAPowerOfTwo() throws IOException {
        Path f = conf("wg.conf", "reduce.workgroupSize = 96\n");
        assertRejected(f, "'reduce.workgroupSize'", "96", "power of two in 32..1024 or auto");
    }

    @Test
    void badFaultSpecNamesTheSpellings() throws IOException {
        Path f = conf("fault.conf", "debug.injectFault = crash@5\n");
        assertRejected(f, "'debug.injectFault'", "crash@5", "none, device-lost@N, oom@N, out-of-date@N or suboptimal@N");
    }

    @Test
    void deviceIndexTooLargeForAnIntegerNamesTheKey() throws IOException {
        Path f = conf("device.conf", "device.select = 99999999999999999999\n");
        assertRejected(f, "'device.select'", "99999999999999999999", "an index from ./tally info");
    }

    @Test
    void aNumberTooLargeForAnyIntegerIsOutOfRangeWithTheRange() throws IOException {
        Path f = conf("slots.conf", "readback.slots = 99999999999999999999\n");
        assertRejected(f, f + ":1", "'readback.slots'", "out of range", "99999999999999999999", "expected an integer in");
    }

    @Test
    void minEVAboveMaxEVNamesBothKeysFileAndLinesBeforeTheDeviceOpens() throws IOException {
        Path f = conf("range.conf", "# range\nexposure.minEV = 5\nexposure.maxEV = 4\n");
        assertRejected(f, f + ":2", f + ":3", "'exposure.minEV' (5", "'exposure.maxEV' (4", "exposure.minEV < exposure.maxEV");
    }

    @Test
    void lowPercentileAboveHighNamesBothKeysFileAndLines() throws IOException {
        Path f = conf("pct.conf", "exposure.highPercentile = 0.2\nexposure.lowPercentile = 0.8\n");
        assertRejected(f, f + ":2", f + ":1", "'exposure.lowPercentile'", "'exposure.highPercentile'");
    }

    @Test
    void aQuotedCurveNamesFileLineAndSaysToDropTheQuotes() throws IOException {
        Path f = conf("curve.conf", "\n\nexposure.curve = \"-6:-2, 0:0\"\n");
        assertRejected(f, f + ":3", "'exposure.curve'", "without quotes");
    }

    @Test
    void goodFileIsAccepted() throws IOException {
        Path f = conf("good.conf", "\uFEFF# ok\r\nframes.inFlight = 3\r\nreadback.slots = 5\r\ndebug.injectFault = none\r\n");
        Cli.Run r = Cli.run("demo", "--config", f.toString(), "--headless", "--frames", "2", "--width", "8", "--height", "8",
                "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().startsWith("2 frames in "), r::toString);
        assertEquals(List.of(), r.errLines().stream().filter(l -> !Cli.isDemoProgress(l)).toList(), r::toString);
    }
}

package dev.tally.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Configuration loading and validation; no GPU involved. */
class ConfigTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private Path writeBytes(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private static ConfigException loadFails(Path file) {
        return assertThrows(ConfigException.class, () -> Config.load(file, List.of()));
    }

    private static ConfigException overrideFails(String... overrides) {
        return assertThrows(ConfigException.class, () -> Config.load(null, List.of(overrides)));
    }

    private static void assertContains(String message, String... fragments) {
        for (String f : fragments) {
            assertTrue(message.contains(f), () -> "expected \"" + f + "\" in message: " + message);
        }
    }

    // ---- defaults -------------------------------------------------------------------------------------

    @Test
    void defaultsHaveEverySchemaKeyWithItsDocumentedValue() {
        Config c = Config.defaults();
        assertEquals(ConfigSchema.standard().names().size(), c.values().size(), () -> "values: " + c.values());
        for (String key : ConfigSchema.standard().names()) {
            assertEquals(ConfigSchema.standard().get(key).defaultValue(), c.string(key), key);
        }
        assertEquals("auto", c.string("device.select"));
        assertFalse(c.bool("validation.enabled"));
        assertEquals(2, c.integer("frames.inFlight"));
        assertEquals(3, c.integer("readback.slots"));
        assertTrue(c.isAuto("reduce.workgroupSize"));
        assertEquals(128, c.integerOr("reduce.workgroupSize", 128));
        assertTrue(c.isAuto("cache.dir"));
    }

    /** The repository's config/tally.conf, as key -> value (comments and blank lines dropped). */
    private static java.util.Map<String, String> packagedFileEntries(String text) {
        java.util.Map<String, String> entries = new java.util.LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String content = line.replaceAll("#.*", "").strip();
            if (content.isEmpty()) {
                continue;
            }
            int eq = content.indexOf('=');
            assertTrue(eq > 0, () -> "key = value: " + line);
            String key = content.substring(0, eq).strip();
            assertNull(entries.put(key, content.substring(eq + 1).strip()), () -> key + " twice in config/tally.conf");
        }
        return entries;
    }

    private static boolean sameValue(ConfigKey key, String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        if (key.type() == ConfigKey.Type.FLOAT || key.type() == ConfigKey.Type.INT) {
            try {
                return Double.parseDouble(a) == Double.parseDouble(b);   // 0.10 and 0.1 are the same default
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    @Test
    void packagedFileAndBuiltInDefaultsAgreeKeyByKey() throws IOException {
        // The file users read and edit, and the defaults the code falls back on, must say the same thing.
        Path repoFile = Path.of("..", "config", "tally.conf");
        String text = Files.readString(repoFile, StandardCharsets.UTF_8);
        java.util.Map<String, String> file = packagedFileEntries(text);
        ConfigSchema schema = ConfigSchema.standard();
        assertEquals(new java.util.TreeSet<>(schema.names()), new java.util.TreeSet<>(file.keySet()),
                "every key is documented in config/tally.conf, and only those keys");
        for (String name : schema.names()) {
            ConfigKey key = schema.get(name);
            assertTrue(sameValue(key, key.defaultValue(), file.get(name)),
                    () -> name + ": built-in default '" + key.defaultValue() + "', config/tally.conf says '" + file.get(name) + "'");
        }
        // The jar ships that same file.
        try (var in = Config.class.getClassLoader().getResourceAsStream("tally/config/tally.conf")) {
            assertNotNull(in, "tally/config/tally.conf on the class path");
            assertEquals(text, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void unknownConfigKeyLookupIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Config.defaults().string("no.such.key"));
    }

    // ---- a user file ----------------------------------------------------------------------------------

    @Test
    void fileValuesOverrideDefaults() throws IOException {
        Path f = write("user.conf", "frames.inFlight = 3\nreduce.workgroupSize = 128\nvalidation.enabled=true\n");
        Config c = Config.load(f, List.of());
        assertEquals(3, c.integer("frames.inFlight"));
        assertEquals(128, c.integerOr("reduce.workgroupSize", 256));
        assertFalse(c.isAuto("reduce.workgroupSize"));
        assertTrue(c.bool("validation.enabled"));
        assertEquals("3", c.string("readback.slots"), "keys the file leaves alone keep their defaults");
    }

    @Test
    void commentsBlankLinesAndWhitespaceAreIgnored() throws IOException {
        Path f = write("comments.conf", String.join("\n",
                "# a comment line",
                "",
                "   ",
                "\t# indented comment",
                "  frames.inFlight   =   4   # trailing comment",
                "reduce.unroll=5#no space before the comment",
                "",
                "# the end"));
        Config c = Config.load(f, List.of());
        assertEquals(4, c.integer("frames.inFlight"));
        assertEquals(5, c.integer("reduce.unroll"));
    }

    @Test
    void windowsLineEndingsAreAccepted() throws IOException {
        Path f = write("crlf.conf", "# comment\r\nframes.inFlight = 3\r\nreadback.slots = 5\r\n");
        Config c = Config.load(f, List.of());
        assertEquals(3, c.integer("frames.inFlight"));
        assertEquals(5, c.integer("readback.slots"));
    }

    @Test
    void emptyFileKeepsDefaults() throws IOException {
        Path f = write("empty.conf", "");
        assertEquals(Config.defaults().values(), Config.load(f, List.of()).values());
    }

    @Test
    void unknownKeyNamesFileLineKeyAndKnownKeys() throws IOException {
        Path f = write("unknown.conf", "# first line is a comment\n\nframes.inFlight = 2\nreduce.frobnicate = 3\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":4:", "reduce.frobnicate", "known keys", "frames.inFlight", "reduce.workgroupSize", "cache.dir");
    }

    @Test
    void wrongTypeNamesFileLineKeyAndAllowedValues() throws IOException {
        Path f = write("type.conf", "\nframes.inFlight = many\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":2:", "frames.inFlight", "not an integer", "many", "1..4");
    }

    @Test
    void wrongBooleanNamesTrueOrFalse() throws IOException {
        Path f = write("bool.conf", "validation.enabled = yes\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":1:", "validation.enabled", "yes", "true or false");
    }

    @Test
    void autoIsRejectedWhereTheKeyDoesNotAllowIt() throws IOException {
        Path f = write("auto.conf", "frames.inFlight = auto\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":1:", "frames.inFlight", "auto", "1..4");
    }

    @Test
    void outOfRangeNamesFileLineKeyAndRange() throws IOException {
        Path f = write("range.conf", "# comment\nframes.inFlight = 2\nreduce.workgroupSize = 2048\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":3:", "reduce.workgroupSize", "out of range", "2048", "32..1024", "or auto");
    }

    @Test
    void belowRangeIsRejectedToo() throws IOException {
        Path f = write("below.conf", "readback.slots = 1\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":1:", "readback.slots", "out of range", "2..16");
    }

    @Test
    void duplicateKeyNamesFileLineOfTheRepeatAndKey() throws IOException {
        Path f = write("dup.conf", "frames.inFlight = 2\n# between\nreadback.slots = 4\nframes.inFlight = 3\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":4:", "frames.inFlight", "twice");
    }

    @Test
    void binaryFileIsRejectedNamingTheFile() throws IOException {
        Path f = writeBytes("binary.conf", new byte[]{'f', 'r', 'a', 0, 0, 1, 2, (byte) 0xff, '\n'});
        String m = loadFails(f).getMessage();
        assertContains(m, f.toString(), "binary", "NUL", "key = value");
    }

    @Test
    void nonUtf8FileIsRejectedNamingTheFile() throws IOException {
        // "cache.dir = café" in ISO-8859-1: 0xE9 alone is not valid UTF-8.
        Path f = writeBytes("latin1.conf", "frames.inFlight = 2\ncache.dir = caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        String m = loadFails(f).getMessage();
        assertContains(m, f.toString(), "not UTF-8");
    }

    @Test
    void validUtf8TextIsAccepted() throws IOException {
        Path f = write("utf8.conf", "cache.dir = /tmp/caf\u00e9 \u00fcber\n");
        assertEquals("/tmp/caf\u00e9 \u00fcber", Config.load(f, List.of()).string("cache.dir"));
    }

    @Test
    void malformedLineNamesFileLineAndExpectedForm() throws IOException {
        Path f = write("malformed.conf", "frames.inFlight = 2\n\njust some words\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":3:", "key = value", "just some words");
    }

    @Test
    void lineWithNoKeyBeforeEqualsIsMalformed() throws IOException {
        Path f = write("nokey.conf", "= 3\n");
        String m = loadFails(f).getMessage();
        assertContains(m, f + ":1:", "key = value");
    }

    @Test
    void missingFileIsAConfigExceptionNamingIt() {
        Path f = dir.resolve("does-not-exist.conf");
        String m = loadFails(f).getMessage();
        assertContains(m, f.toString(), "cannot read");
    }

    // ---- --set overrides ------------------------------------------------------------------------------

    @Test
    void setOverridesWinOverTheFile() throws IOException {
        Path f = write("base.conf", "frames.inFlight = 3\nreadback.slots = 6\n");
        Config c = Config.load(f, List.of("frames.inFlight=1", " readback.slots = 7 "));
        assertEquals(1, c.integer("frames.inFlight"));
        assertEquals(7, c.integer("readback.slots"));
    }

    @Test
    void laterSetOverridesWinOverEarlierOnes() {
        Config c = Config.load(null, List.of("frames.inFlight=1", "frames.inFlight=4"));
        assertEquals(4, c.integer("frames.inFlight"));
    }

    @Test
    void setValueMayContainEqualsSigns() {
        Config c = Config.load(null, List.of("cache.dir=/tmp/a=b"));
        assertEquals("/tmp/a=b", c.string("cache.dir"));
    }

    @Test
    void setUnknownKeyIsRejected() {
        String m = overrideFails("reduce.frobnicate=1").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "reduce.frobnicate", "known keys", "frames.inFlight");
    }

    @Test
    void setWrongTypeIsRejected() {
        String m = overrideFails("frames.inFlight=two").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "frames.inFlight", "not an integer", "two", "1..4");
    }

    @Test
    void setOutOfRangeIsRejected() {
        String m = overrideFails("reduce.unroll=9").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "reduce.unroll", "out of range", "9", "1..8");
    }

    @Test
    void setWrongBooleanIsRejected() {
        String m = overrideFails("validation.enabled=1").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "validation.enabled", "true or false");
    }

    @Test
    void setWithoutEqualsIsRejected() {
        String m = overrideFails("frames.inFlight").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "frames.inFlight", "key=value");
    }

    @Test
    void setWithEmptyKeyIsRejected() {
        String m = overrideFails("=3").getMessage();
        assertTrue(m.startsWith("--set"), m);
        assertContains(m, "key=value");
    }

    @Test
    void aBadSetIsReportedEvenAfterAGoodFile() throws IOException {
        Path f = write("good.conf", "frames.inFlight = 3\n");
        ConfigException e = assertThrows(ConfigException.class, () -> Config.load(f, List.of("frames.inFlight=0")));
        assertTrue(e.getMessage().startsWith("--set"), e.getMessage());
    }

    // ---- Config.with ----------------------------------------------------------------------------------

    @Test
    void withReturnsAValidatedCopyAndLeavesTheOriginalAlone() {
        Config base = Config.defaults();
        Config changed = base.with("frames.inFlight", " 3 ");
        assertEquals(3, changed.integer("frames.inFlight"));
        assertEquals(2, base.integer("frames.inFlight"));
        Config auto = changed.with("reduce.groups", "auto").with("reduce.groups", "77");
        assertEquals(77, auto.integer("reduce.groups"));
        assertEquals(3, auto.integer("frames.inFlight"), "earlier changes are kept");
    }

    @Test
    void withRejectsBadValuesAndUnknownKeys() {
        Config base = Config.defaults();
        ConfigException range = assertThrows(ConfigException.class, () -> base.with("frames.inFlight", "5"));
        assertContains(range.getMessage(), "frames.inFlight", "1..4");
        ConfigException unknown = assertThrows(ConfigException.class, () -> base.with("no.such.key", "1"));
        assertContains(unknown.getMessage(), "no.such.key");
    }

    @Test
    void valuesMapIsUnmodifiable() {
        Config c = Config.defaults();
        assertThrows(UnsupportedOperationException.class, () -> c.values().put("frames.inFlight", "4"));
    }
}

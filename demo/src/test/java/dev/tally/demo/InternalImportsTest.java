package dev.tally.demo;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The demo is meant to use only what Tally exports. {@code src/test/resources/internal-imports.txt} lists every
 * import of an internal package ({@code dev.tally.internal.*}) the demo's sources still make, file by file: the
 * test fails on a new one (use the exported API, or add what is missing to it) and on a listed one that is gone
 * (take it off the list, so that it only shrinks).
 */
class InternalImportsTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Path RECORD = Path.of("src/test/resources/internal-imports.txt");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(dev\\.tally\\.internal\\.[\\w.]+);", Pattern.MULTILINE);

    @Test
    void theDemoImportsNoInternalTypeBeyondTheRecordedOnes() throws IOException {
        Set<String> actual = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    actual.add(SOURCES.relativize(f).toString().replace('\\', '/') + " " + m.group(1));
                }
            }
        }
        List<String> recorded = Files.readAllLines(RECORD).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        Set<String> added = new TreeSet<>(actual);
        recorded.forEach(added::remove);
        Set<String> gone = new TreeSet<>(recorded);
        actual.forEach(gone::remove);
        assertTrue(added.isEmpty(), "the demo imports internal types not in " + RECORD + ": " + added
                + "; use the exported API (or export what an embedder would need too)");
        assertTrue(gone.isEmpty(), "no longer imported, take them off " + RECORD + ": " + gone);
    }
}

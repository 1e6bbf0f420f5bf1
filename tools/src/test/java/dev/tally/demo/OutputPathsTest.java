package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Output files: every one checked before the run (not a directory, its directory writable, distinct from
 * the other outputs), written whole with the permissions the umask gives any new file, nothing left behind.
 */
class OutputPathsTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;

    private static Cli.Run tally(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.add("--set");
        all.add("cache.dir=" + cache);
        Cli.Run r = ToolsCli.run(all.toArray(String[]::new));
        System.err.println("tally " + String.join(" ", all) + " -> " + r);
        return r;
    }

    /** Exit 2 before the run: one line naming every fragment, nothing on stdout, no file created in {@code dir}. */
    private void assertRefusedUpFront(Cli.Run r, String... fragments) throws IOException {
        assertEquals(2, r.status(), r::toString);
        List<String> lines = r.errLines().stream().filter(l -> !Cli.isDemoProgress(l)).toList();
        assertEquals(1, lines.size(), r::toString);
        for (String f : fragments) {
            assertTrue(lines.get(0).contains(f), () -> "expected '" + f + "' in " + lines.get(0));
        }
        assertFalse(r.err().contains("demo on "), () -> "refused only after the device opened:\n" + r);
        assertFalse(r.err().contains("\tat "), r::toString);
    }

    private List<String> filesIn(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theSameFileForTwoOutputsIsRefusedBeforeTheRun() throws IOException {
        Path x = dir.resolve("x");
        Files.writeString(x, "keep me");
        assertRefusedUpFront(tally("demo", "--headless", "--frames", "2", "--screenshot", x.toString(), "--stats-json", x.toString()),
                "--screenshot", "--stats-json", "x");
        assertEquals("keep me", Files.readString(x), "the existing file is untouched");
        // Spelled differently, still one file.
        assertRefusedUpFront(tally("demo", "--headless", "--frames", "2", "--graph-dot", x.toString(),
                "--stats-json", dir.resolve("sub/../x").toString()), "--graph-dot", "--stats-json");
    }

    @ParameterizedTest
    @CsvSource({"soak, --json", "bench, --json", "demo, --stats-json", "demo, --graph-dot", "demo, --screenshot"})
    void aDirectoryAsTheOutputIsRefusedBeforeTheRun(String command, String option) throws IOException {
        Cli.Run r = command.equals("demo") ? tally("demo", "--headless", "--frames", "2", option, dir.toString())
                : command.equals("soak") ? tally("soak", "--frames", "20", option, dir.toString())
                : tally("bench", "--quick", "--only", "reduce", option, dir.toString());
        assertRefusedUpFront(r, option, "is a directory");
        assertEquals(List.of(), filesIn(dir), "nothing written, nothing half-written");
    }

    @Test
    void aMissingDirectoryIsRefusedBeforeTheRun() throws IOException {
        assertRefusedUpFront(tally("soak", "--frames", "20", "--json", dir.resolve("no/such/dir/s.json").toString()), "--json", "does not exist");
    }

    @Test
    void anEmptyFileNameIsSaidToBeEmpty() throws IOException {
        Cli.Run r = tally("demo", "--headless", "--frames", "2", "--screenshot", "");
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("--screenshot") && r.err().contains("empty file name"), r::toString);
        assertFalse(r.err().contains("is a directory"), r::toString);
    }

    @Test
    void outputsFollowTheUmaskLikeAnyNewFile() throws IOException {
        Path reference = Files.createFile(dir.resolve("reference"));
        Path out = dir.resolve("out.json");
        AtomicFiles.write(out, "{}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("{}\n", Files.readString(out));
        assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(reference)),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(out)), "the umask's permissions, as a plain new file gets");
        AtomicFiles.write(out, "{\"again\": 1}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("out.json", "reference"), filesIn(dir), "no temporary file left beside the output");
    }

    @Test
    void aDemoRunWritesItsFilesWithTheUmasksPermissions() throws IOException {
        Path reference = Files.createFile(dir.resolve("reference"));
        Path stats = dir.resolve("stats.json");
        Path dot = dir.resolve("graph.dot");
        Path png = dir.resolve("shot.png");
        Cli.Run r = tally("demo", "--headless", "--frames", "3", "--width", "64", "--height", "36", "--stats-json", stats.toString(),
                "--graph-dot", dot.toString(), "--screenshot", png.toString());
        assertEquals(0, r.status(), r::toString);
        String expected = PosixFilePermissions.toString(Files.getPosixFilePermissions(reference));
        for (Path p : List.of(stats, dot, png)) {
            assertEquals(expected, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
        }
        assertEquals(List.of("graph.dot", "reference", "shot.png", "stats.json"), filesIn(dir));
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Long runs report progress on standard error only when it is a terminal. The tests' standard error is a
 * buffer, not a terminal; the terminal case is a command whose terminal check answers yes. (The bench's
 * progress is checked with the tools: BenchProgressTest.)
 */
class ProgressTest {
    @TempDir
    static Path cache;

    static final class SoakOnATerminal extends SoakCommand {
        @Override
        boolean showProgress() {
            return true;
        }
    }

    // Built per test: JUnit fills the @TempDir field after static initializers run, so a static array would
    // hold "cache.dir=null" and put the cache in a folder named null in the working directory.
    private static String[] soak() {
        return new String[] {"--frames", "100", "--width", "32", "--height", "18", "--set", "cache.dir=" + cache};
    }

    private static String[] args(String cmd, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = cmd;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void soakShowsProgressOnATerminalOnly() {
        Cli.Run quiet = Cli.run(args("soak", soak()));
        assertEquals(0, quiet.status(), quiet::toString);
        assertEquals("", quiet.err(), "nothing on a standard error that is not a terminal");

        Cli.Run shown = Cli.run(null, () -> Main.commandLine().addSubcommand("tty-soak", new SoakOnATerminal()), args("tty-soak", soak()));
        assertEquals(0, shown.status(), shown::toString);
        assertEquals(List.of("soak: 20/100 frames", "soak: 40/100 frames", "soak: 60/100 frames", "soak: 80/100 frames", "soak: 100/100 frames"),
                shown.errLines().stream().filter(l -> l.startsWith("soak: ")).toList(), shown::toString);
        assertEquals(quiet.outLines().size(), shown.outLines().size(), "the same results on standard output");
    }

    @Test
    void theTestsOwnStandardErrorIsNotATerminal() {
        // Under Maven, file descriptor 2 is a pipe: the premise of the quiet cases above.
        assertFalse(Progress.stderrIsTerminal());
    }
}

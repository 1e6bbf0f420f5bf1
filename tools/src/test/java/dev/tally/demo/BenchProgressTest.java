package dev.tally.demo;

import dev.tally.tools.ToolsMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The bench reports progress on standard error only when it is a terminal (the demo's ProgressTest says why
 * the tests' standard error is not one); the terminal case is a bench whose terminal check answers yes.
 */
class BenchProgressTest {
    @TempDir
    static Path cache;

    static final class BenchOnATerminal extends BenchCommand {
        @Override
        boolean showProgress() {
            return true;
        }
    }

    // Built per test: JUnit fills the @TempDir field after static initializers run.
    private static String[] bench() {
        return new String[] {"--quick", "--max-log2", "10", "--samples", "1", "--set", "cache.dir=" + cache};
    }

    private static String[] args(String cmd, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = cmd;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void benchShowsProgressOnATerminalOnly() {
        Cli.Run quiet = ToolsCli.run(args("bench", bench()));
        assertEquals(0, quiet.status(), quiet::toString);
        assertEquals("", quiet.err(), "nothing on a standard error that is not a terminal");

        Cli.Run shown = Cli.run(null, () -> ToolsMain.commandLine().addSubcommand("tty-bench", new BenchOnATerminal()), args("tty-bench", bench()));
        assertEquals(0, shown.status(), shown::toString);
        assertTrue(shown.err().startsWith("bench on "), shown::toString);
        assertTrue(shown.errLines().contains("n = 2^10"), shown::toString);
        assertEquals(quiet.outLines().get(0), shown.outLines().get(0), "the same table header on standard output");
    }
}

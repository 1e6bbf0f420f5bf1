package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Usage help: {@code --help}, {@code -h} and {@code help CMD} on every command exit 0 with the command's
 * usage and touch no GPU; a bad flag's hint names the command that failed. The launcher's own commands
 * (test, dist, help) are checked by running the script. Run on the command line {@code ./tally} runs (the
 * tools' entry point), which holds every command.
 */
class HelpTest {
    private static final List<String> COMMANDS = List.of("info", "reduce", "demo", "bench", "soak", "graphcheck");

    @ParameterizedTest
    @ValueSource(strings = {"info", "reduce", "demo", "bench", "soak", "graphcheck"})
    void longAndShortHelpAndHelpCommandPrintTheSameUsage(String cmd) {
        Cli.Run longForm = ToolsCli.run(cmd, "--help");
        Cli.Run shortForm = ToolsCli.run(cmd, "-h");
        Cli.Run helpCmd = ToolsCli.run("help", cmd);
        for (Cli.Run r : List.of(longForm, shortForm, helpCmd)) {
            assertEquals(0, r.status(), r::toString);
            assertEquals("", r.err(), r::toString);
            assertTrue(r.out().startsWith("Usage: tally " + cmd + " "), r::toString);
            assertTrue(r.out().contains("-h, --help"), r::toString);
        }
        assertEquals(longForm.out(), shortForm.out());
        assertEquals(longForm.out(), helpCmd.out());
    }

    @Test
    void helpAfterOtherOptionsStillWinsAndRunsNothing() {
        // Help must not start a run: a soak of a million frames would take hours.
        Cli.Run r = ToolsCli.run("soak", "--frames", "1000000", "--help");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().startsWith("Usage: tally soak"), r::toString);
        assertTrue(r.millis() < 5_000, r::toString);
    }

    @Test
    void topLevelHelpListsEveryCommand() {
        for (String[] args : new String[][]{{"--help"}, {"help"}, {}}) {
            Cli.Run r = ToolsCli.run(args);
            assertEquals(0, r.status(), r::toString);
            for (String cmd : COMMANDS) {
                assertTrue(r.out().lines().anyMatch(l -> l.strip().startsWith(cmd + " ") || l.strip().equals(cmd)),
                        () -> cmd + " missing from:\n" + r);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"info", "reduce", "demo", "bench", "soak", "graphcheck"})
    void unknownOptionHintNamesTheFailingCommand(String cmd) {
        // reduce's FILE is given so that the unknown option is the only thing wrong.
        Cli.Run r = cmd.equals("reduce") ? ToolsCli.run(cmd, "--frobnicate", "x.f32") : ToolsCli.run(cmd, "--frobnicate");
        assertEquals(2, r.status(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally " + cmd + ": "), line);
        assertTrue(line.contains("--frobnicate"), line);
        assertTrue(line.endsWith("(see ./tally " + cmd + " --help)"), line);
    }

    @Test
    void errorsOutsideASubcommandNeverSayTallyTwice() {
        Cli.Run unknownCmd = ToolsCli.run("frobnicate");
        Cli.Run unknownHelp = ToolsCli.run("help", "frobnicate");
        for (Cli.Run r : List.of(unknownCmd, unknownHelp)) {
            assertEquals(2, r.status(), r::toString);
            assertEquals(1, r.errLines().size(), r::toString);
            assertFalse(r.err().contains("tally tally"), r::toString);
            assertTrue(r.err().contains("frobnicate"), r::toString);
        }
        // Both are mistakes at the top level: the list of commands is the help that answers them.
        assertTrue(unknownCmd.err().startsWith("tally: ") && unknownCmd.err().strip().endsWith("(see ./tally --help)"), unknownCmd::toString);
        assertTrue(unknownHelp.err().startsWith("tally: ") && unknownHelp.err().strip().endsWith("(see ./tally --help)"), unknownHelp::toString);
    }

    // ---- the launcher script -------------------------------------------------------------------------

    private record Script(int status, String out, String err) {
    }

    /** Runs ./tally with arguments that never start Java or Maven (those paths are checked above through Main). */
    private static Script launcher(String... args) throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isRegularFile(root.resolve("tally"))) {
            root = root.getParent();
        }
        assertNotNull(root, "the tally launcher above " + Path.of("").toAbsolutePath());
        Path out = Files.createTempFile("tally-launcher", ".out");
        Path err = Files.createTempFile("tally-launcher", ".err");
        try {
            List<String> command = new java.util.ArrayList<>(List.of("bash", root.resolve("tally").toString()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "launcher did not finish");
            return new Script(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void launcherHelpListsEveryCommandAndTheScriptOnlyOnes() throws Exception {
        Script s = launcher("help");
        assertEquals(0, s.status(), s::toString);
        for (String cmd : List.of("demo", "test", "reduce", "bench", "info", "soak", "graphcheck", "dist", "example")) {
            assertTrue(s.out().lines().anyMatch(l -> l.startsWith("  " + cmd + " ")), () -> cmd + " missing:\n" + s.out());
        }
    }

    @Test
    void launcherOnlyCommandsHaveHelpToo() throws Exception {
        for (String[] args : new String[][]{{"test", "--help"}, {"test", "-h"}, {"help", "test"}}) {
            Script s = launcher(args);
            assertEquals(0, s.status(), () -> String.join(" ", args) + ": " + s);
            assertTrue(s.out().startsWith("usage: ./tally test"), () -> String.join(" ", args) + ": " + s);
        }
        for (String[] args : new String[][]{{"dist", "--help"}, {"dist", "-h"}, {"help", "dist"}}) {
            Script s = launcher(args);
            assertEquals(0, s.status(), () -> String.join(" ", args) + ": " + s);
            assertTrue(s.out().startsWith("usage: ./tally dist"), () -> String.join(" ", args) + ": " + s);
        }
        Script example = launcher("help", "example");   // (example --help builds the example first: the program prints it)
        assertEquals(0, example.status(), example::toString);
        assertTrue(example.out().startsWith("usage: ./tally example"), example::toString);
    }

    @Test
    void launcherUnknownCommandIsStatus2AndPointsAtHelp() throws Exception {
        Script s = launcher("frobnicate");
        assertEquals(2, s.status(), s::toString);
        assertEquals("", s.out());
        assertTrue(s.err().contains("'frobnicate'") && s.err().contains("./tally help"), s::toString);
    }
}

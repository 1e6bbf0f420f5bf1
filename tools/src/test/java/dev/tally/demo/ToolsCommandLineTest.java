package dev.tally.demo;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The tools' commands join the demo's command line whole: their file names go through the same check as
 * the demo's (picocli hands a converter only to the commands present when it is registered, so a command
 * added after it would take an empty name as the current directory). Refused while parsing: no device opens.
 */
class ToolsCommandLineTest {
    @ParameterizedTest
    @ValueSource(strings = {"info", "reduce", "bench", "graphcheck", "demo", "soak"})
    void anEmptyConfigFileNameIsABadParameterOfThatCommand(String cmd) {
        Cli.Run r = cmd.equals("reduce") ? ToolsCli.run(cmd, "--config", "", "x.f32") : ToolsCli.run(cmd, "--config", "");
        assertEquals(2, r.status(), r::toString);
        assertEquals("", r.out(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally " + cmd + ": ") && line.contains("--config") && line.contains("empty file name"), line);
        assertTrue(line.endsWith("(see ./tally " + cmd + " --help)"), line);
    }
}

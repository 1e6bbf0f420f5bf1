package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@code tally bench --only GROUP,...} runs those case groups and no others; an unknown group is one line, exit 2. */
class BenchOnlyTest {
    @TempDir
    static Path cache;

    private static List<String> caseNames(Cli.Run run) {
        return run.outLines().stream().skip(1).map(l -> l.split("\\s+")[0]).toList();
    }

    @Test
    void onlyTheNamedGroupsRun() {
        Cli.Run run = ToolsCli.run("bench", "--quick", "--samples", "1", "--only", "tonemap,hud", "--set", "cache.dir=" + cache);
        assertEquals(0, run.status(), run::toString);
        assertEquals(List.of("tonemap", "tonemap-cleared", "tonemap-floor", "tonemap-fragment", "hud", "hud-graphics"), caseNames(run), run::toString);
    }

    @Test
    void progressGoesToAPipeWhenAskedFor() {
        Cli.Run quiet = ToolsCli.run("bench", "--quick", "--samples", "1", "--only", "tonemap", "--set", "cache.dir=" + cache);
        assertEquals("", quiet.err(), quiet::toString);
        Cli.Run run = ToolsCli.run("bench", "--quick", "--samples", "1", "--only", "tonemap", "--progress", "--set", "cache.dir=" + cache);
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.err().startsWith("bench on "), run::toString);
    }

    @Test
    void anUnknownGroupIsNamed() {
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame,histo", "--set", "cache.dir=" + cache);
        assertEquals(2, run.status(), run::toString);
        assertEquals(1, run.errLines().size(), run::toString);
        assertTrue(run.err().contains("--only") && run.err().contains("'histo'"), run::toString);
    }

    @Test
    void aMalformedFrameCpuSizeIsNamedBeforeTheDeviceOpens() {
        for (String size : new String[]{"1280", "12x5", "1280x720x2", "widexhigh"}) {
            Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "frame", "--frame-cpu-size", size, "--set", "cache.dir=" + cache);
            assertEquals(2, run.status(), run::toString);
            assertEquals(1, run.errLines().size(), run::toString);
            assertTrue(run.err().contains("--frame-cpu-size '" + size + "'") && run.err().contains("WIDTHxHEIGHT"), run::toString);
        }
    }
}

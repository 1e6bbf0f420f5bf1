package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@code tally bench --stats-variant NAME=SHADER[:DEFINES]} times that kernel beside the engine's; a bad spec is one line, exit 2. */
class BenchStatsVariantTest {
    @TempDir
    static Path cache;

    @Test
    void aVariantIsTimedAndCheckedBesideTheEnginesKernel() {
        Cli.Run run = ToolsCli.run("bench", "--quick", "--samples", "1", "--max-log2", "10", "--only", "reduce",
                "--stats-variant", "again=reduce_stats.comp:UNUSED_DEFINE=3", "--set", "cache.dir=" + cache);
        assertEquals(0, run.status(), run::toString);
        List<String> stats = run.outLines().stream().map(l -> l.split("\\s+")[0]).filter(n -> n.startsWith("reduce-stats")).toList();
        assertEquals(List.of("reduce-stats", "reduce-stats-again"), stats, run::toString);
    }

    @Test
    void aSpecWithoutAShaderIsNamed() {
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "reduce", "--stats-variant", "lonely", "--set", "cache.dir=" + cache);
        assertEquals(2, run.status(), run::toString);
        assertEquals(1, run.errLines().size(), run::toString);
        assertTrue(run.err().contains("--stats-variant") && run.err().contains("'lonely'"), run::toString);
    }
}

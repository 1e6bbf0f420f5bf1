package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code tally bench --only exposure} times the histogram's sampled read (an HDR image without STORAGE usage)
 * beside its storage read, and checks both histograms: all pixels of the flat image in one bin, the same bin;
 * with validation on, the bins' readback included.
 */
class BenchExposureSampledTest {
    @TempDir
    static Path cache;

    @Test
    void theSampledReadIsTimedAndCheckedBesideTheStorageRead() {
        Cli.Run run = ToolsCli.run("bench", "--quick", "--only", "exposure", "--validate", "--set", "cache.dir=" + cache);
        assertEquals(0, run.status(), run::toString);
        assertFalse(run.err().contains("[validation "), run::toString);
        List<String> cases = run.outLines().stream().map(l -> l.split("\\s+")[0]).filter(n -> n.startsWith("exposure-")).toList();
        for (String expected : List.of("exposure-histogram", "exposure-chain", "exposure-cleared-histogram", "exposure-cleared-chain", "exposure-sampled-histogram", "exposure-sampled-chain")) {
            assertTrue(cases.contains(expected), () -> expected + " missing from " + cases + "\n" + run);
        }
    }
}

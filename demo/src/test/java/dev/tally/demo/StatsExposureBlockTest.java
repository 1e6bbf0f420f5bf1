package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/** The stats file's exposure block is the GPU's exposure record, read back: a clamp set in the config shows in it. */
class StatsExposureBlockTest {
    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (\"[a-z]+\"|-?[0-9.]+|null)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return m.group(1);
    }

    private static String run(Path dir, String... sets) throws Exception {
        Path stats = dir.resolve("s" + sets.length + ".json");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("demo", "--headless", "--frames", "12", "--width", "96",
                "--height", "54", "--fixed-dt", "0.05", "--stats-json", stats.toString()));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        Cli.Run r = Cli.run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r::toString);
        return Files.readString(stats);
    }

    @Test
    void theRecordsFieldsFollowTheClamp(@TempDir Path dir) throws Exception {
        String free = run(dir);
        assertEquals("0", field(free, "clampHit"), free);
        double target = Double.parseDouble(field(free, "targetEv"));
        double low = Double.parseDouble(field(free, "lowEv"));
        double high = Double.parseDouble(field(free, "highEv"));
        assertTrue(low <= high, "percentile bounds in order: " + free);
        assertTrue(field(free, "phase").matches("\"(snap|linear|exponential|holding)\""), free);

        // A ceiling two stops below the free target: the record says it was lowered to the maximum.
        double ceiling = Math.floor(target) - 2;
        String clamped = run(dir, "exposure.clampMaxEV=" + ceiling);
        assertEquals("1", field(clamped, "clampHit"), clamped);
        assertEquals(ceiling, Double.parseDouble(field(clamped, "targetEv")), 1e-4, clamped);
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ./tally reduce --op stats} end to end, one-pass and two-pass plans, against a float64 reference. */
class ReduceStatsCommandTest {
    @TempDir
    static Path cacheDir;
    @TempDir
    Path dir;

    private Path floats(float[] values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return Files.write(dir.resolve("values.f32"), b.array());
    }

    /** "name value" lines to a map. */
    private static Map<String, Double> lines(Cli.Run r) {
        Map<String, Double> out = new HashMap<>();
        for (String line : r.outLines()) {
            String[] parts = line.split(" ");
            assertEquals(2, parts.length, line);
            out.put(parts[0], Double.parseDouble(parts[1]));
        }
        return out;
    }

    private void matchesFloat64(int n, long singleDispatchMax) throws IOException {
        SplittableRandom rnd = new SplittableRandom(n);
        float[] values = new float[n];
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            values[i] = (float) (rnd.nextDouble() * 8 - 3);
            sum += values[i];
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
        }
        double mean = sum / n;
        double m2 = 0;
        for (float v : values) {
            m2 += (v - mean) * (v - mean);
        }
        Cli.Run r = ToolsCli.run("reduce", "--validate", "--op", "stats", "--set", "cache.dir=" + cacheDir,
                "--set", "reduce.singleDispatchMax=" + singleDispatchMax, floats(values).toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("", r.err(), r::toString);
        Map<String, Double> s = lines(r);
        assertEquals(Map.of("count", 0.0, "sum", 0.0, "min", 0.0, "max", 0.0, "mean", 0.0, "variance", 0.0).keySet(), s.keySet(), r::toString);
        assertEquals(n, s.get("count"), 0.0, "count");
        assertEquals(sum, s.get("sum"), n * 3 * 1e-6, "sum");
        // Plain text spells the float result in its shortest form: compare as floats.
        assertEquals((float) min, s.get("min").floatValue(), "min");
        assertEquals((float) max, s.get("max").floatValue(), "max");
        assertEquals(mean, s.get("mean"), 1e-5, "mean");
        assertEquals(m2 / n, s.get("variance"), m2 / n * 1e-5, "variance");
    }

    @Test
    void onePassMatchesAFloat64Reference() throws IOException {
        matchesFloat64(100_003, 1 << 22);
    }

    @Test
    void twoPassMatchesAFloat64Reference() throws IOException {
        matchesFloat64(100_003, 1 << 12);
    }
}

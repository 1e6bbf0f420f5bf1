package dev.tally.internal.reduce;

import dev.tally.internal.engine.Engine;

import dev.tally.reduce.ReduceStats;

import dev.tally.GpuTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The statistics reduction on ordered, skewed and non-finite data, against float64 references computed
 * here: the sum within 1e-6 and the variance within 1e-5 (relative) whatever the order, and infinities
 * as the sum treats them. Default plans: up to 2^22 one dispatch on a CPU device, two passes above.
 */
class StatsAccuracyTest extends GpuTestBase {

    private ReduceStats stats(float[] data) {
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            return one.stats(array).stats();
        }
    }

    /** Float64 sum, mean and population variance (two passes over the data). */
    static double[] reference(float[] data) {
        double sum = 0;
        for (float f : data) {
            sum += f;
        }
        double mean = sum / data.length;
        double m2 = 0;
        for (float f : data) {
            m2 += (f - mean) * (f - mean);
        }
        return new double[]{sum, mean, m2 / data.length};
    }

    static float[] uniform(int n, long seed) {
        return ReductionAccuracyTest.uniform(n, seed);
    }

    static float[] lognormal(int n, double sigma, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) Math.exp(sigma * r.nextGaussian());
        }
        return a;
    }

    static float[] sorted(float[] a) {
        float[] s = a.clone();
        Arrays.sort(s);
        return s;
    }

    static float[] descending(float[] a) {
        float[] s = sorted(a);
        for (int i = 0, j = s.length - 1; i < j; i++, j--) {
            float t = s[i];
            s[i] = s[j];
            s[j] = t;
        }
        return s;
    }

    /** One large value first, then n tiny ones: a shift taken from the first element loses every tiny one. */
    static float[] bigThenTiny(int n, float big, float tiny) {
        float[] a = new float[n + 1];
        Arrays.fill(a, tiny);
        a[0] = big;
        return a;
    }

    static Stream<Arguments> orderedAndSkewed() {
        int m = 1 << 20;
        return Stream.of(
                Arguments.of("lognormal(0,3) 10^6 sorted descending", descending(lognormal(1_000_000, 3, 6))),
                Arguments.of("[1.0] + [1e-8] x 10^6", bigThenTiny(1_000_000, 1f, 1e-8f)),
                Arguments.of("U[0,1) 2^20 sorted", sorted(uniform(m, 20))),
                Arguments.of("U[0,1) 2^20 reversed", descending(uniform(m, 21))),
                Arguments.of("U[0,1) 2^20 shuffled", uniform(m, 22)),
                Arguments.of("lognormal(0,3) 2^20", lognormal(m, 3, 23)),
                Arguments.of("[1e4] + [1e-3] x 2^20", bigThenTiny(m, 1e4f, 1e-3f)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orderedAndSkewed")
    void sumAndVarianceMatchFloat64OnAnyOrder(String name, float[] data) {
        assertAccurate(name, data);
    }

    /** The two-pass plan (2^24 > the CPU device's one-dispatch limit), on the orders that broke the shifted sums. */
    @Test
    void sumAndVarianceMatchFloat64At2To24() {
        int n = 1 << 24;
        assertAccurate("U[0,1) 2^24 sorted", sorted(uniform(n, 24)));
        assertAccurate("lognormal(0,3) 2^24 sorted descending", descending(lognormal(n, 3, 25)));
        assertAccurate("[1.0] + [1e-8] x 2^24", bigThenTiny(n, 1f, 1e-8f));
    }

    private void assertAccurate(String name, float[] data) {
        double[] ref = reference(data);
        ReduceStats s = stats(data);
        double sumError = Math.abs(s.sum() - ref[0]) / Math.abs(ref[0]);
        double meanError = Math.abs(s.mean() - ref[1]) / Math.abs(ref[1]);
        double varianceError = Math.abs(s.variance() - ref[2]) / ref[2];
        String report = String.format("%s: sum %.9g (float64 %.9g, %.2g off), mean %.9g (%.2g off), variance %.9g (float64 %.9g, %.2g off)",
                name, s.sum(), ref[0], sumError, s.mean(), meanError, s.variance(), ref[2], varianceError);
        System.out.println(report);
        assertEquals(data.length, s.count(), report);
        assertTrue(sumError <= 1e-6, report);
        assertTrue(meanError <= 1e-6, report);
        assertTrue(varianceError <= 1e-5, report);
    }

    @Test
    void sameBitsEveryRunOnSkewedData() {
        float[] data = descending(lognormal(1_000_003, 3, 8));
        ReduceStats first = stats(data);
        for (int i = 0; i < 3; i++) {
            assertEquals(first, stats(data), "run " + (i + 2));
        }
    }

    /** Equal values have no spread: each invocation's shift is one of them, so every deviation is exactly 0. */
    @ParameterizedTest(name = "{1} copies of {0}")
    @CsvSource({"1.0, 1048576", "3.7, 1048576", "3.7, 4194307", "-2.5e-3, 1000", "1e30, 65539"})
    void equalValuesHaveAVarianceOfExactlyZero(float value, int n) {
        ReduceStats s = stats(filled(n, value));
        assertEquals(n, s.count(), s.toString());
        assertEquals(0f, s.variance(), s.toString());
        assertEquals(value, s.min(), s.toString());
        assertEquals(value, s.max(), s.toString());
        assertEquals(value, s.mean(), Math.abs(value) * 1e-7, s.toString());
    }

    // ---- non-finite values: as the sum treats them ---------------------------------------------------

    @Test
    void onePositiveInfinityMakesSumAndMeanInfinityAndTheVarianceNaN() {
        for (float[] data : new float[][]{{Float.POSITIVE_INFINITY, 1, 2}, {Float.POSITIVE_INFINITY}, filled(1000, Float.POSITIVE_INFINITY),
                withAt(uniform(100_000, 4), 77_777, Float.POSITIVE_INFINITY)}) {
            ReduceStats s = stats(data);
            String what = data.length + " values: " + s;
            assertEquals(data.length, s.count(), what);
            assertEquals(Float.POSITIVE_INFINITY, s.sum(), what);
            assertEquals(Float.POSITIVE_INFINITY, s.mean(), what);
            assertEquals(Float.POSITIVE_INFINITY, s.max(), what);
            assertTrue(Float.isNaN(s.variance()), what);
        }
        ReduceStats s = stats(new float[]{Float.POSITIVE_INFINITY, 1, 2});
        assertEquals(1f, s.min(), s.toString());
    }

    @Test
    void oneNegativeInfinityMakesSumAndMeanMinusInfinity() {
        ReduceStats s = stats(withAt(uniform(5000, 5), 17, Float.NEGATIVE_INFINITY));
        assertEquals(Float.NEGATIVE_INFINITY, s.sum(), s.toString());
        assertEquals(Float.NEGATIVE_INFINITY, s.mean(), s.toString());
        assertEquals(Float.NEGATIVE_INFINITY, s.min(), s.toString());
        assertTrue(Float.isNaN(s.variance()), s.toString());
    }

    @Test
    void bothInfinitiesMakeSumMeanAndVarianceNaN() {
        float[] data = withAt(withAt(uniform(5000, 6), 3, Float.POSITIVE_INFINITY), 4000, Float.NEGATIVE_INFINITY);
        ReduceStats s = stats(data);
        assertTrue(Float.isNaN(s.sum()) && Float.isNaN(s.mean()) && Float.isNaN(s.variance()), s.toString());
        assertEquals(Float.NEGATIVE_INFINITY, s.min(), s.toString());
        assertEquals(Float.POSITIVE_INFINITY, s.max(), s.toString());
    }

    @Test
    void finiteValuesThatOverflowSumToInfinity() {
        ReduceStats s = stats(filled(1000, 3e38f));
        assertEquals(Float.POSITIVE_INFINITY, s.sum(), s.toString());
        assertEquals(3e38f, s.max(), s.toString());
    }

    private static float[] filled(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    private static float[] withAt(float[] a, int at, float v) {
        a[at] = v;
        return a;
    }
}

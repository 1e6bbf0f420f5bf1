package dev.tally.internal.reduce;

import dev.tally.internal.engine.Engine;

import dev.tally.reduce.ReduceStats;

import dev.tally.GpuTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The statistics reduction against a float64 reference, one-pass and two-pass plans alike. */
class StatsReductionTest extends GpuTestBase {
    @Override
    protected List<String> configOverrides() {
        // Small enough that n above 2^16 takes the two-pass plan (first pass, then the fold dispatch).
        return List.of("reduce.singleDispatchMax=65536");
    }

    private ReduceStats stats(float[] data) {
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            return one.stats(array).stats();
        }
    }

    /** Two-pass float64 reference: mean, then the mean squared deviation (StatsAccuracyTest's). */
    private static double[] reference(float[] data) {
        return StatsAccuracyTest.reference(data);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 7, 255, 1000, 65536, 65537, 1_000_003})
    void everyStatisticMatchesAFloat64Reference(int n) {
        assertMatchesReference(n);
    }

    /**
     * A one-group input up to the small pipeline's limit runs in one subgroup (eight loads an invocation, no round through
     * shared memory); one float more takes the one-pass pipeline. Both agree with the float64 reference at the edge.
     */
    @Test
    void smallInputsRunInOneSubgroupAndAgreeAtTheEdge() {
        Reducer reducer = Engine.of(runtime).reducer();
        int limit = reducer.smallStatsLimit();
        assertEquals(Engine.of(runtime).context().info().subgroupSize() * 32, limit, "a subgroup's eight vec4 loads an invocation");
        assertEquals("small", reducer.statsMode(reducer.plan(1)));
        assertEquals("small", reducer.statsMode(reducer.plan(limit)));
        assertEquals("one-pass", reducer.statsMode(reducer.plan(limit + 1)));
        for (int n : new int[]{limit - 1, limit, limit + 1}) {
            assertMatchesReference(n);
        }
    }

    private void assertMatchesReference(int n) {
        float[] data = ReductionAccuracyTest.uniform(n, 31L * n + 5);
        for (int i = 0; i < n; i++) {
            data[i] = data[i] * 20 - 7;   // negative and positive values, mean away from zero
        }
        double[] ref = reference(data);
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        for (float f : data) {
            min = Math.min(min, f);
            max = Math.max(max, f);
        }
        ReduceStats s = stats(data);
        double sumAbs = 0;
        for (float f : data) {
            sumAbs += Math.abs(f);
        }
        assertEquals(n, s.count(), "count");
        assertEquals(ref[0], s.sum(), Math.max(1e-5, sumAbs * 1e-6), "sum");
        assertEquals(min, s.min(), "min");
        assertEquals(max, s.max(), "max");
        assertEquals(ref[1], s.mean(), Math.max(1e-6, sumAbs / n * 1e-6), "mean");
        assertEquals(ref[2], s.variance(), Math.max(1e-6, ref[2] * 1e-5), "variance");
    }

    @Test
    void varianceOfUniformAt2To24IsWithin1e5OfFloat64AndTheSameBitsEveryRun() {
        int n = 1 << 24;
        float[] data = ReductionAccuracyTest.uniform(n, 2024);
        double[] ref = reference(data);
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            ReduceStats first = one.stats(array).stats();
            assertEquals(0, Math.abs(first.variance() - ref[2]) / ref[2], 1e-5, "variance " + first.variance() + " vs " + ref[2]);
            assertEquals(0, Math.abs(first.mean() - ref[1]) / ref[1], 1e-6, "mean");
            ReduceStats second = one.stats(array).stats();
            assertEquals(first, second, "deterministic: same record twice");
        }
    }

    /**
     * Every workgroup's elements sit near their own level (100 x the group's index), so nearly all of the
     * variance lies between the workgroups' records: the fold must add each record's offset from the
     * others, and about a reference that keeps those large terms from cancelling.
     */
    @ParameterizedTest
    @ValueSource(ints = {65_536, 1_000_003})
    void recordsWithFarApartMeansFoldToTheWholeVariance(int n) {
        ReducePlan plan = Engine.of(runtime).reducer().plan(n);
        int groups = plan.firstPass().get(0).groups();
        int wg = Engine.of(runtime).reducer().settings().workgroupSize();
        assertTrue(groups > 1, "the plan must have several workgroups, got " + groups);
        float[] data = ReductionAccuracyTest.uniform(n, 77L + n);
        long stride = (long) groups * wg;
        long vec4s = n / 4;
        for (int e = 0; e < n; e++) {
            // The grid-stride loop gives vec4 i to group (i mod stride) / wg; the 0-3 trailing floats go to group 0.
            long group = e / 4 < vec4s ? (e / 4 % stride) / wg : 0;
            data[e] += 100f * group;
        }
        double[] ref = reference(data);
        ReduceStats s = stats(data);
        assertEquals(n, s.count(), "count");
        assertEquals(ref[1], s.mean(), ref[1] * 1e-6, "mean");
        assertEquals(ref[2], s.variance(), ref[2] * 1e-5, "variance (between-group part " + ref[2] + ")");
    }

    @Test
    void emptyInputGivesIdentitiesAndNaNMeanAndVariance() {
        ReduceStats s = stats(new float[0]);
        assertEquals(0, s.count());
        assertEquals(0f, s.sum());
        assertEquals(Float.POSITIVE_INFINITY, s.min());
        assertEquals(Float.NEGATIVE_INFINITY, s.max());
        assertTrue(Float.isNaN(s.mean()) && Float.isNaN(s.variance()), s.toString());
    }

    @Test
    void aNaNMakesEveryValueButTheCountNaN() {
        float[] data = ReductionAccuracyTest.uniform(100_000, 9);
        data[77_777] = Float.NaN;
        ReduceStats s = stats(data);
        assertEquals(100_000, s.count());
        assertTrue(Float.isNaN(s.sum()) && Float.isNaN(s.min()) && Float.isNaN(s.max()) && Float.isNaN(s.mean())
                && Float.isNaN(s.variance()), s.toString());
    }

    @Test
    void aLargeMeanDoesNotCancelTheVariance() {
        // 1e4 + U[0,1): naive sum-of-squares in f32 loses the variance (1/12) to cancellation.
        float[] data = ReductionAccuracyTest.uniform(300_001, 3);
        for (int i = 0; i < data.length; i++) {
            data[i] += 10_000f;
        }
        double[] ref = reference(data);
        assertEquals(ref[2], stats(data).variance(), ref[2] * 1e-3, "variance about a large mean");
    }
}

package dev.tally.internal.reduce;

import dev.tally.GpuTestBase;
import dev.tally.internal.engine.Engine;
import dev.tally.reduce.ReduceOp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reduction kernel at three vec4 loads per step, the unroll an SM device reads its large inputs with
 * ({@link ReduceSettings#largeUnroll}): sums, minima and maxima right on one-pass and two-pass plans and on inputs
 * whose invocations are left one or two vec4s short of a full step, validation on.
 */
class ReductionUnrollTest extends GpuTestBase {
    @Override
    protected List<String> configOverrides() {
        return List.of("reduce.unroll=3", "reduce.singleDispatchMax=4096");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 1000, 4096, 4097, 12_289, 100_003})
    void sumMinAndMaxAreRightAtUnrollThree(int n) {
        ReducePlan plan = Engine.of(runtime).reducer().plan(n);
        assertEquals(3, plan.unroll(), "the configured unroll reaches the plan");
        float[] data = ReductionAccuracyTest.uniform(n, 31L + n);
        double sum = ReductionAccuracyTest.referenceSum(data);
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        for (float f : data) {
            min = Math.min(min, f);
            max = Math.max(max, f);
        }
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            assertEquals(sum, one.reduce(ReduceOp.SUM, array).value(), Math.max(1e-6, sum * 1e-6), "sum n=" + n + " " + plan);
            assertEquals(min, one.reduce(ReduceOp.MIN, array).value(), "min n=" + n);
            assertEquals(max, one.reduce(ReduceOp.MAX, array).value(), "max n=" + n);
        }
    }
}

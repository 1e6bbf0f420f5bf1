package dev.tally.internal.reduce;

import dev.tally.internal.engine.Engine;

import dev.tally.reduce.ReduceOp;

import dev.tally.GpuTestBase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reduction on a device that demands 256-byte storage-buffer offsets (imitated with
 * {@code debug.forceStorageAlignment}), with validation on: the partials move from offset 16 to 256,
 * one-pass and two-pass plans alike, and the answers stay right. The reducer refuses to bind at an
 * offset that breaks the alignment, so a plan that does not round its offset fails here.
 */
class ForcedStorageAlignmentTest extends GpuTestBase {
    @Override
    protected List<String> configOverrides() {
        // A small single-dispatch limit so that both plan kinds run at test sizes.
        return List.of("debug.forceStorageAlignment=256", "reduce.singleDispatchMax=4096");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 4096, 4097, 100_003})
    void sumAndMaxAreRightWithTheAlignmentForced(int n) {
        assertEquals(256, Engine.of(runtime).reducer().settings().storageAlignment(), "the debug key reaches the reducer");
        float[] data = ReductionAccuracyTest.uniform(n, 77L + n);
        double sum = ReductionAccuracyTest.referenceSum(data);
        float max = Float.NEGATIVE_INFINITY;
        for (float f : data) {
            max = Math.max(max, f);
        }
        ReducePlan plan = Engine.of(runtime).reducer().plan(n);
        assertEquals(256, plan.partialsOffset(), "partials bound at the forced alignment");
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            assertEquals(sum, one.reduce(ReduceOp.SUM, array).value(), Math.max(1e-6, sum * 1e-6), "sum n=" + n);
            assertEquals(max, one.reduce(ReduceOp.MAX, array).value(), "max n=" + n);
        }
    }
}

package dev.tally.internal.reduce;

import dev.tally.internal.engine.Engine;

import dev.tally.reduce.ReduceOp;

import dev.tally.GpuTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** Every operator against a double-precision CPU reference, on random and adversarial data. */
class ReductionAccuracyTest extends GpuTestBase {

    private float reduce(ReduceOp op, float[] data) {
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            return one.reduce(op, array).value();
        }
    }

    private float[] reduceAll(float[] data) {
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            float[] out = new float[ReduceOp.values().length];
            for (ReduceOp op : ReduceOp.values()) {
                out[op.ordinal()] = one.reduce(op, array).value();
            }
            return out;
        }
    }

    @Test
    void aReloadedReducerReducesWithItsRebuiltPipelines() {
        float[] data = uniform(4097, 7);
        float before = reduce(ReduceOp.SUM, data);
        Engine.of(runtime).reducer().reload();
        for (int i = 0; i < 4; i++) {   // past the deferred destruction of the pipelines the reload dropped
            assertEquals(before, reduce(ReduceOp.SUM, data), "reduction " + i + " after the reload");
            assertEquals(before, reduce(ReduceOp.MEAN, data) * data.length, before * 1e-6f, "mean " + i + " after the reload");
        }
    }

    static double referenceSum(float[] data) {
        double s = 0;
        for (float f : data) {
            s += f;
        }
        return s;
    }

    static float[] uniform(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) r.nextDouble();
        }
        return a;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 4, 5, 255, 256, 257, 4097, 65536 + 7, (1 << 20) + 3})
    void everyOpMatchesTheReferenceOnRandomData(int n) {
        SplittableRandom r = new SplittableRandom(n);
        float[] data = new float[n];
        for (int i = 0; i < n; i++) {
            data[i] = (float) (r.nextDouble() * 200 - 100);
        }
        float[] got = reduceAll(data);
        double sum = referenceSum(data);
        double sumAbs = Arrays.stream(toDouble(data)).map(Math::abs).sum();
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        for (float f : data) {
            min = Math.min(min, f);
            max = Math.max(max, f);
        }
        // f32 summation error bound relative to the sum of magnitudes; generous factor for the tree.
        double tol = Math.max(1e-30, sumAbs * 1e-6);
        assertEquals(sum, got[ReduceOp.SUM.ordinal()], tol, "sum n=" + n);
        assertEquals(min, got[ReduceOp.MIN.ordinal()], "min n=" + n);
        assertEquals(max, got[ReduceOp.MAX.ordinal()], "max n=" + n);
        if (n == 0) {
            assertTrue(Float.isNaN(got[ReduceOp.MEAN.ordinal()]), "mean of nothing is NaN");
            assertEquals(0f, got[ReduceOp.SUM.ordinal()]);
            assertEquals(Float.POSITIVE_INFINITY, got[ReduceOp.MIN.ordinal()]);
            assertEquals(Float.NEGATIVE_INFINITY, got[ReduceOp.MAX.ordinal()]);
        } else {
            assertEquals(sum / n, got[ReduceOp.MEAN.ordinal()], tol / n + 1e-6, "mean n=" + n);
        }
    }

    private static double[] toDouble(float[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }

    @Test
    void sumOfUniformAt2to24IsWithinOnePpm() {
        float[] data = uniform(1 << 24, 24);
        double ref = referenceSum(data);
        float[] got = reduceAll(data);
        double rel = Math.abs(got[ReduceOp.SUM.ordinal()] - ref) / ref;
        System.out.printf("sum U[0,1) n=2^24: gpu %.9g ref %.9g relative error %.3g%n", got[ReduceOp.SUM.ordinal()], ref, rel);
        assertTrue(rel <= 1e-6, "relative error " + rel);
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        for (float f : data) {
            min = Math.min(min, f);
            max = Math.max(max, f);
        }
        assertEquals(min, got[ReduceOp.MIN.ordinal()]);
        assertEquals(max, got[ReduceOp.MAX.ordinal()]);
    }

    @Test
    void integerDataBelow2to24SumsExactly() {
        int n = 1 << 20;
        float[] data = new float[n];
        SplittableRandom r = new SplittableRandom(7);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            data[i] = r.nextInt(16); // total stays below 2^24
            sum += (long) data[i];
        }
        assertTrue(sum < (1 << 24));
        assertEquals((float) sum, reduce(ReduceOp.SUM, data));
    }

    @Test
    void aNaNAnywhereMakesEveryResultNaN() {
        for (int position : new int[]{0, 1, 2, 3, 4, 1000, 4095, 99_999}) {
            float[] data = uniform(100_000, position);
            data[position] = Float.NaN;
            float[] got = reduceAll(data);
            for (ReduceOp op : ReduceOp.values()) {
                assertTrue(Float.isNaN(got[op.ordinal()]), op + " with NaN at " + position + " gave " + got[op.ordinal()]);
            }
        }
    }

    @Test
    void infinitiesFollowIeee() {
        float[] plus = uniform(5000, 1);
        plus[17] = Float.POSITIVE_INFINITY;
        float[] got = reduceAll(plus);
        assertEquals(Float.POSITIVE_INFINITY, got[ReduceOp.SUM.ordinal()]);
        assertEquals(Float.POSITIVE_INFINITY, got[ReduceOp.MAX.ordinal()]);
        assertEquals(Float.POSITIVE_INFINITY, got[ReduceOp.MEAN.ordinal()]);

        float[] both = uniform(5000, 2);
        both[3] = Float.POSITIVE_INFINITY;
        both[4000] = Float.NEGATIVE_INFINITY;
        got = reduceAll(both);
        assertTrue(Float.isNaN(got[ReduceOp.SUM.ordinal()]), "+Inf + -Inf is NaN");
        assertEquals(Float.NEGATIVE_INFINITY, got[ReduceOp.MIN.ordinal()]);
        assertEquals(Float.POSITIVE_INFINITY, got[ReduceOp.MAX.ordinal()]);
    }

    @Test
    void cancellingValuesSumToZeroAndExtremesSurvive() {
        int n = 10_000;
        float[] data = new float[n];
        for (int i = 0; i < n; i += 2) {
            data[i] = 1e30f;
            data[i + 1] = -1e30f;
        }
        // Pairs sit in the same vec4 lane order, so each pair cancels exactly before anything else.
        assertEquals(0f, reduce(ReduceOp.SUM, data));
        data[n / 2] = Float.MAX_VALUE;
        data[n / 3] = -Float.MAX_VALUE;
        assertEquals(Float.MAX_VALUE, reduce(ReduceOp.MAX, data));
        assertEquals(-Float.MAX_VALUE, reduce(ReduceOp.MIN, data));
        float[] tiny = new float[1000];
        Arrays.fill(tiny, Float.MIN_NORMAL);
        assertEquals(1000 * (double) Float.MIN_NORMAL, reduce(ReduceOp.SUM, tiny), Float.MIN_NORMAL * 1e-3);
    }

    @Test
    void subnormalsAreKeptOrFlushedAsTheDevicePromises() {
        float sub = Float.MIN_VALUE * 1000; // subnormal
        assertTrue(sub < Float.MIN_NORMAL);
        float[] data = new float[512];
        Arrays.fill(data, sub);
        data[7] = -sub * 2;
        float got = reduce(ReduceOp.SUM, data);
        double kept = 509 * (double) sub; // 511 x sub + one -2 x sub
        float min = reduce(ReduceOp.MIN, data);
        if (Engine.of(runtime).context().info().denormPreserve32()) {
            assertEquals(kept, got, sub * 1e-3, "device promises to preserve subnormals");
            assertEquals(-sub * 2, min);
        } else {
            // Either preserved or flushed to (signed) zero, nothing else.
            assertTrue(Math.abs(got - kept) <= sub * 1e-3 || got == 0f, "sum " + got + " is neither kept nor flushed");
            assertTrue(min == -sub * 2 || min == 0f, "min " + min + " is neither kept nor flushed");
        }
    }

    @Test
    void sameBitsOnTwentyRuns() {
        float[] data = uniform((1 << 20) + 5, 20);
        try (DeviceArray array = DeviceArray.of(Engine.of(runtime).context(), "test.input", data);
             OneShotReduction one = new OneShotReduction(Engine.of(runtime).context(), Engine.of(runtime).reducer())) {
            int first = Float.floatToRawIntBits(one.reduce(ReduceOp.SUM, array).value());
            for (int i = 0; i < 19; i++) {
                assertEquals(first, Float.floatToRawIntBits(one.reduce(ReduceOp.SUM, array).value()), "run " + (i + 2));
            }
        }
    }

    @Test
    void arraysLargerThanOneBindingStillReduce() {
        long chunk = Engine.of(runtime).reducer().settings().chunkElements();
        long bytesNeeded = (chunk + 5) * 4;
        long deviceMemory = Engine.of(runtime).context().info().deviceLocalBytes();
        org.junit.jupiter.api.Assumptions.assumeTrue(bytesNeeded < deviceMemory / 3,
                "the device's binding range (" + chunk + " floats) is too close to its memory to test here");
        int n = Math.toIntExact(chunk + 5);
        float[] data = new float[n];
        long expect = 0;
        for (int i = 0; i < n; i++) {
            data[i] = (i % 3) == 0 ? 1f : 0f;
            expect += (i % 3) == 0 ? 1 : 0;
        }
        data[n - 1] = 7f; // in the second chunk: must be seen
        expect += 7 - ((n - 1) % 3 == 0 ? 1 : 0);
        assertTrue(Engine.of(runtime).reducer().plan(n).firstPass().size() >= 2, "plan must split the input");
        float[] got = reduceAll(data);
        assertEquals((double) expect, got[ReduceOp.SUM.ordinal()], expect * 1e-6);
        assertEquals(7f, got[ReduceOp.MAX.ordinal()]);
        assertEquals(0f, got[ReduceOp.MIN.ordinal()]);
    }
}

package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureSettings;

import dev.tally.internal.vk.TrackedBuffer;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static dev.tally.exposure.ExposureShaderLayout.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Runs the auto-exposure chain frame after frame on the GPU (histogram, resolve, and exposure with normalization fused in;
 * exposure with both histories ping-ponged and the curve table), and the CPU model beside it with
 * its own state. The model starts from the GPU's bins each frame (the histogram stage has its own
 * exact tests); from there on the two run independently, so differences would accumulate over the
 * sequence. {@link #frame} asserts that every record field agrees: EV fields within 1e-4 EV, the
 * discrete fields exactly.
 */
final class ExposureSequence {
    static final float EV_TOLERANCE = 1e-4f;

    private final ExposureGpuHarness gpu;
    private final int width;
    private final int height;
    private final TrackedBuffer accumulator;
    private final TrackedBuffer bins;
    private final TrackedBuffer total;
    private final TrackedBuffer normalized;
    private final TrackedBuffer[] filtered;
    private final TrackedBuffer[] records;
    private final TrackedBuffer curve;
    private final ExposureGpuHarness.EnginePass resolve;
    private final ExposureGpuHarness.EnginePass exposure;
    private final ExposureGpuHarness.Pipeline histogram;
    private final Map<float[], float[]> binsByScene = new IdentityHashMap<>();
    private ExposureCurve uploadedCurve;
    private float[] modelFiltered = new float[NORMALIZED_FLOATS];
    private float[] modelRecord = new float[EXPOSURE_FLOATS];
    private int frames;
    private float worstDifference;

    ExposureSequence(ExposureGpuHarness gpu, int width, int height) {
        this.gpu = gpu;
        this.width = width;
        this.height = height;
        accumulator = gpu.hostBuffer("test.accumulator", ACCUMULATOR_BYTES);
        bins = gpu.hostBuffer("test.bins", BINS_BYTES);
        total = gpu.hostBuffer("test.total", TOTAL_BYTES);
        normalized = gpu.hostBuffer("test.normalized", NORMALIZED_BYTES);
        filtered = new TrackedBuffer[]{gpu.hostBuffer("test.filteredA", NORMALIZED_BYTES), gpu.hostBuffer("test.filteredB", NORMALIZED_BYTES)};
        records = new TrackedBuffer[]{gpu.hostBuffer("test.recordA", EXPOSURE_BYTES), gpu.hostBuffer("test.recordB", EXPOSURE_BYTES)};
        curve = gpu.hostBuffer("test.curve", CURVE_TABLE_BYTES);
        resolve = gpu.enginePass(HISTOGRAM, resolveDefines(), 2, 0);
        exposure = gpu.enginePass(EXPOSURE, Map.of(), EXPOSURE_BINDINGS, EXPOSURE_PUSH_BYTES);
        histogram = gpu.histogramPipeline(HdrFormat.RGBA32F, Metering.UNIFORM, DEFAULT_ROWS_PER_INVOCATION);
    }

    /** A grey RGBA32F image whose pixels' log2 luminances are {@code evs} (row-major). */
    static float[] greyImage(double[] evs) {
        float[] rgba = new float[4 * evs.length];
        for (int i = 0; i < evs.length; i++) {
            float g = (float) Math.pow(2.0, evs[i]);
            Arrays.fill(rgba, 4 * i, 4 * i + 3, g);
            rgba[4 * i + 3] = 1f;
        }
        return rgba;
    }

    /** Pixels spread evenly over {@code spreadEV} around {@code centreEV}; {@code 0} spread is flat. */
    static double[] gradient(int n, double centreEV, double spreadEV) {
        double[] evs = new double[n];
        for (int i = 0; i < n; i++) {
            evs[i] = centreEV + spreadEV * ((i + 0.5) / n - 0.5);
        }
        return evs;
    }

    /**
     * A dark room with a bright window: {@code 1 - brightFraction} of the pixels spread over 2 stops
     * around {@code darkEV}, the rest over 2 stops around {@code brightEV}.
     */
    static double[] room(int n, double darkEV, double brightEV, double brightFraction) {
        int bright = (int) Math.round(n * brightFraction);
        double[] evs = new double[n];
        double[] dark = gradient(n - bright, darkEV, 2);
        double[] light = gradient(bright, brightEV, 2);
        System.arraycopy(dark, 0, evs, 0, dark.length);
        System.arraycopy(light, 0, evs, dark.length, light.length);
        return evs;
    }

    /** The GPU's bins of a scene (computed once per scene array). */
    float[] binsOf(float[] rgba) {
        return binsByScene.computeIfAbsent(rgba, scene -> {
            ExposureGpuHarness.Image image = gpu.image("test.hdr", VK_FORMAT_R32G32B32A32_SFLOAT, width, height,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
            gpu.upload(image, ExposureGpuHarness.floats(scene), VK_IMAGE_LAYOUT_GENERAL);
            gpu.bindHistogram(histogram, image, accumulator, null, 0);
            gpu.context().submitAndWait(cmd -> {
                gpu.dispatchHistogram(cmd, histogram, width, height, DEFAULT_ROWS_PER_INVOCATION, ExposureSettings.DEFAULTS);
                ExposureGpuHarness.computeToCompute(cmd);
                resolve.dispatch(cmd, List.of(accumulator, bins), null);
                ExposureGpuHarness.computeToHost(cmd);
            });
            return ExposureGpuHarness.readFloats(bins, BINS);
        });
    }

    /**
     * One frame of a scene; returns the GPU's record after checking it against the model's. The
     * histogram settings (range) must be the defaults: scenes are binned once.
     */
    float[] frame(float[] scene, float dt, boolean reset, ExposureSettings s) {
        float[] sceneBins = binsOf(scene);
        ExposureGpuHarness.writeFloats(bins, sceneBins);
        float sum = ExposureModel.total(sceneBins);
        ExposureGpuHarness.writeFloats(total, new float[]{sum});
        if (!s.curve().equals(uploadedCurve)) {
            ExposureGpuHarness.writeFloats(curve, s.curve().bake());
            uploadedCurve = s.curve();
        }
        TrackedBuffer filteredBefore = filtered[frames % 2];
        TrackedBuffer filteredNow = filtered[(frames + 1) % 2];
        TrackedBuffer history = records[frames % 2];
        TrackedBuffer output = records[(frames + 1) % 2];
        gpu.context().submitAndWait(cmd -> {
            try (MemoryStack stack = stackPush()) {
                ByteBuffer push = putExposurePush(stack.malloc(EXPOSURE_PUSH_BYTES), s, dt, reset);
                exposure.dispatch(cmd, List.of(bins, total, normalized, filteredBefore, filteredNow, history, output, curve), push);
                ExposureGpuHarness.computeToHost(cmd);
            }
        });
        float[] gpuRecord = ExposureGpuHarness.readFloats(output, EXPOSURE_FLOATS);
        ExposureModel.Step step = ExposureModel.exposure(ExposureModel.normalize(sceneBins, sum), modelFiltered, modelRecord,
                s.curve().bake(), dt, reset, s);
        modelFiltered = step.filtered();
        modelRecord = step.record();
        assertRecord(modelRecord, gpuRecord, "frame " + frames);
        frames++;
        return gpuRecord;
    }

    /** The largest EV difference seen between the GPU and the model so far. */
    float worstDifference() {
        return worstDifference;
    }

    private void assertRecord(float[] expected, float[] got, String at) {
        String both = at + ": model " + Arrays.toString(expected) + ", GPU " + Arrays.toString(got);
        for (int i : new int[]{VALID, MEASURED, CLAMP_HIT, PHASE}) {
            assertEquals(expected[i], got[i], "field " + i + ", " + both);
        }
        for (int i : new int[]{EV, MEAN_LOG_LUM, LOW_EV, HIGH_EV, TARGET_EV, CURVE_EV, SCENE_EV}) {
            float d = Math.abs(expected[i] - got[i]);
            worstDifference = Math.max(worstDifference, d);
            assertEquals(expected[i], got[i], EV_TOLERANCE, "field " + i + ", " + both);
        }
        assertEquals(expected[MULTIPLIER], got[MULTIPLIER], Math.abs(expected[MULTIPLIER]) * 1e-4f, both);
        for (int i = SCENE_EV + 1; i < EXPOSURE_FLOATS; i++) {
            assertEquals(0f, got[i], "reserved field " + i);
        }
    }
}

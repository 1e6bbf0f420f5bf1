package dev.tally.internal.exposure;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureSettings;

import dev.tally.GpuTestBase;
import dev.tally.exposure.ExposureShaderLayout.HdrFormat;
import dev.tally.internal.shader.ShaderCompiler;
import dev.tally.internal.shader.ShaderSources;
import dev.tally.internal.vk.TrackedBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static dev.tally.exposure.ExposureShaderLayout.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The auto-exposure shaders on a real device (lavapipe in CI, under validation), against
 * {@link ExposureModel}. Bin counts must match exactly wherever the model is exact (no pixel within a
 * rounding of a bin edge), metering and adaptation to float tolerance, tone mapping to one 8-bit step.
 */
class ExposureGpuTest extends GpuTestBase {
    private ShaderCompiler compiler;

    @BeforeAll
    void openCompiler() {
        compiler = new ShaderCompiler(ShaderSources.directory(ExposureShadersCompileTest.shaderDirectory()), null);
    }

    @AfterAll
    void closeCompiler() {
        compiler.close();
    }

    private ExposureGpuHarness harness() {
        return new ExposureGpuHarness(Engine.of(runtime).context(), compiler);
    }

    // ---- test images -----------------------------------------------------------------------------

    /** An HDR image in both representations: what the GPU gets and the floats the model reads. */
    record Hdr(HdrFormat format, int width, int height, float[] rgba, ByteBuffer texels) {
    }

    static float halfToFloat(int h) {
        int sign = (h >>> 15) & 1, exp = (h >>> 10) & 0x1f, mant = h & 0x3ff;
        float v;
        if (exp == 0) {
            v = mant * 0x1p-24f;
        } else if (exp == 31) {
            v = mant == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        } else {
            v = (1f + mant / 1024f) * (float) Math.pow(2, exp - 15);
        }
        return sign == 1 ? -v : v;
    }

    /** An unsigned float of 5 exponent bits and {@code mantissaBits} mantissa bits (B10G11R11's channels), decoded. */
    static float smallFloatToFloat(int bits, int mantissaBits) {
        int exp = bits >>> mantissaBits, mant = bits & ((1 << mantissaBits) - 1);
        if (exp == 0) {
            return mant * 0x1p-14f / (1 << mantissaBits);
        }
        if (exp == 31) {
            return mant == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        }
        return (1f + (float) mant / (1 << mantissaBits)) * (float) Math.pow(2, exp - 15);
    }

    /** True when a pixel is safely inside one bin: the model's bin cannot differ from a GPU's by a log2 ULP. */
    static boolean awayFromBinEdges(float r, float g, float b, ExposureSettings s) {
        if (!Float.isFinite(r) || !Float.isFinite(g) || !Float.isFinite(b)) {
            return true;
        }
        float lum = ExposureModel.luminance(r, g, b);
        if (!(lum > 0f) || !Float.isFinite(lum)) {
            return true;
        }
        double scaled = (Math.log(lum) / Math.log(2) - s.minEV()) * s.binsPerEV();
        return Math.abs(scaled - Math.rint(scaled)) > 1e-3;
    }

    /** Random pixels over the whole float range: in range, below, above, zero, negative, NaN, Inf. */
    static Hdr randomImage(HdrFormat format, int w, int h, long seed, ExposureSettings s) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] rgba = new float[4 * w * h];
        ByteBuffer texels;
        if (format == HdrFormat.RGBA16F) {
            short[] halves = new short[4 * w * h];
            for (int i = 0; i < w * h; i++) {
                float[] c = new float[3];
                do {
                    for (int ch = 0; ch < 3; ch++) {
                        int bits = r.nextInt(1 << 16);
                        if (((bits >>> 10) & 0x1f) == 0) {
                            bits &= 0x8000;                  // no half subnormals (a device may flush them)
                        }
                        halves[4 * i + ch] = (short) bits;
                        c[ch] = halfToFloat(bits);
                    }
                } while (!awayFromBinEdges(c[0], c[1], c[2], s));
                halves[4 * i + 3] = (short) 0x3c00;          // alpha 1
                System.arraycopy(c, 0, rgba, 4 * i, 3);
                rgba[4 * i + 3] = 1f;
            }
            texels = ExposureGpuHarness.shorts(halves);
        } else if (format == HdrFormat.B10G11R11) {
            int[] packed = new int[w * h];
            int[] widths = {6, 6, 5};   // mantissa bits of R, G (11-bit floats) and B (10-bit)
            for (int i = 0; i < w * h; i++) {
                float[] c = new float[3];
                int word;
                do {
                    word = 0;
                    int shift = 0;
                    for (int ch = 0; ch < 3; ch++) {
                        int bits = r.nextInt(1 << (5 + widths[ch]));
                        if ((bits >>> widths[ch]) == 0) {
                            bits = 0;                        // no subnormals (a device may flush them)
                        }
                        word |= bits << shift;
                        shift += 5 + widths[ch];
                        c[ch] = smallFloatToFloat(bits, widths[ch]);
                    }
                } while (!awayFromBinEdges(c[0], c[1], c[2], s));
                packed[i] = word;
                System.arraycopy(c, 0, rgba, 4 * i, 3);
                rgba[4 * i + 3] = 1f;
            }
            texels = ExposureGpuHarness.ints(packed);
        } else {
            for (int i = 0; i < w * h; i++) {
                float[] c = new float[3];
                do {
                    int kind = r.nextInt(100);
                    double base = Math.pow(2, r.nextDouble(-16, 26));
                    for (int ch = 0; ch < 3; ch++) {
                        c[ch] = (float) (base * r.nextDouble(0.25, 2));
                    }
                    if (kind < 3) {
                        c[r.nextInt(3)] = Float.NaN;
                    } else if (kind < 5) {
                        c[r.nextInt(3)] = Float.POSITIVE_INFINITY;
                    } else if (kind < 6) {
                        c[r.nextInt(3)] = Float.NEGATIVE_INFINITY;
                    } else if (kind < 9) {
                        Arrays.fill(c, 0f);
                    } else if (kind < 12) {
                        c[r.nextInt(3)] = -c[0] * 8;          // negative channel, luminance of either sign
                    } else if (kind < 13) {
                        Arrays.fill(c, Float.MAX_VALUE);      // the largest luminance, FLT_MAX exactly: bin 255
                    }
                } while (!awayFromBinEdges(c[0], c[1], c[2], s));
                System.arraycopy(c, 0, rgba, 4 * i, 3);
                rgba[4 * i + 3] = 1f;
            }
            texels = ExposureGpuHarness.floats(rgba);
        }
        return new Hdr(format, w, h, rgba, texels);
    }

    static Hdr flatImage(int w, int h, float value) {
        float[] rgba = new float[4 * w * h];
        for (int i = 0; i < w * h; i++) {
            rgba[4 * i] = value;
            rgba[4 * i + 1] = value;
            rgba[4 * i + 2] = value;
            rgba[4 * i + 3] = 1f;
        }
        return new Hdr(HdrFormat.RGBA32F, w, h, rgba, ExposureGpuHarness.floats(rgba));
    }

    private ExposureGpuHarness.Image uploadHdr(ExposureGpuHarness gpu, Hdr hdr) {
        ExposureGpuHarness.Image image = gpu.image("test.hdr", hdr.format().vkFormat(), hdr.width(), hdr.height(),
                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        gpu.upload(image, hdr.texels().duplicate(), VK_IMAGE_LAYOUT_GENERAL);
        return image;
    }

    // ---- histogram -------------------------------------------------------------------------------

    static Stream<Arguments> histogramCases() {
        List<Arguments> cases = new ArrayList<>();
        for (HdrFormat f : HdrFormat.values()) {
            for (Metering m : Metering.values()) {
                cases.add(Arguments.of(f, m, DEFAULT_ROWS_PER_INVOCATION));
            }
        }
        cases.add(Arguments.of(HdrFormat.RGBA32F, Metering.UNIFORM, 1));
        cases.add(Arguments.of(HdrFormat.RGBA16F, Metering.CENTRE, 7));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} rows {2}")
    @MethodSource("histogramCases")
    void theHistogramMatchesTheModel(HdrFormat format, Metering metering, int rows) {
        ExposureSettings s = format != HdrFormat.RGBA32F ? ExposureSettings.DEFAULTS.withRange(-8f, 12f) : ExposureSettings.DEFAULTS;
        int w = 157, h = 93;
        Hdr hdr = randomImage(format, w, h, 31L * format.ordinal() + metering.ordinal() + rows, s);
        int maskW = 40, maskH = 25;
        float[] mask = new float[maskW * maskH];
        SplittableRandom r = new SplittableRandom(99);
        for (int i = 0; i < mask.length; i++) {
            int kind = r.nextInt(10);
            mask[i] = kind == 0 ? Float.NaN : kind == 1 ? -0.5f : kind == 2 ? 3f : r.nextInt(257) / 256f;
        }
        try (ExposureGpuHarness gpu = harness()) {
            ExposureGpuHarness.Image image = uploadHdr(gpu, hdr);
            ExposureGpuHarness.Image maskImage = null;
            long sampler = 0;
            if (metering == Metering.MASK) {
                maskImage = gpu.image("test.mask", VK_FORMAT_R32_SFLOAT, maskW, maskH,
                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
                gpu.upload(maskImage, ExposureGpuHarness.floats(mask), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                sampler = gpu.nearestSampler();
            }
            TrackedBuffer accumulator = gpu.hostBuffer("test.accumulator", ACCUMULATOR_BYTES);
            TrackedBuffer bins = gpu.hostBuffer("test.bins", BINS_BYTES);
            ExposureGpuHarness.Pipeline histogram = gpu.histogramPipeline(format, metering, rows);
            gpu.bindHistogram(histogram, image, accumulator, maskImage, sampler);
            ExposureGpuHarness.EnginePass resolve = gpu.enginePass(HISTOGRAM, resolveDefines(), 2, 0);
            gpu.context().submitAndWait(cmd -> {
                gpu.dispatchHistogram(cmd, histogram, w, h, rows, s);
                ExposureGpuHarness.computeToCompute(cmd);
                resolve.dispatch(cmd, List.of(accumulator, bins), null);
                ExposureGpuHarness.computeToHost(cmd);
            });
            float[] got = ExposureGpuHarness.readFloats(bins, BINS);
            float[] expected = ExposureModel.accumulate(ExposureModel.HdrImage.of(hdr.rgba(), w, h), w, h, metering,
                    mask, maskW, maskH, s, rows).resolve();
            assertArrayEquals(new int[2 * BINS], ExposureGpuHarness.readInts(accumulator, 2 * BINS), "resolve zeroes the accumulator");
            if (metering != Metering.CENTRE) {
                assertArrayEquals(expected, got, "bins");
            } else {
                // A centre weight within float-division error of a 1/256 rounding step may round either way.
                float slack = ambiguousCentreWeights(w, h) / 256f;
                double totalDiff = 0;
                for (int i = 0; i < BINS; i++) {
                    assertEquals(expected[i], got[i], slack, "bin " + i);
                    totalDiff += Math.abs(expected[i] - got[i]);
                }
                assertTrue(totalDiff <= slack, "total difference " + totalDiff);
            }
            if (metering == Metering.UNIFORM) {
                assertEquals(w * h, ExposureModelTest.sum(got), 0.0, "uniform metering sums to W x H");
            }
        }
    }

    static int ambiguousCentreWeights(int w, int h) {
        int n = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double scaled = ExposureModel.centreWeight(x, y, w, h) * 256.0 + 0.5;
                if (Math.abs(scaled - Math.rint(scaled)) < 1e-4) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void aFlatImageCountsEveryPixelOnce() {
        int w = 1000, h = 600;
        float grey = ExposureModelTest.greyOfEV(ExposureModel.binCentreEV(77, ExposureSettings.DEFAULTS));
        try (ExposureGpuHarness gpu = harness()) {
            ExposureGpuHarness.Image image = uploadHdr(gpu, flatImage(w, h, grey));
            TrackedBuffer accumulator = gpu.hostBuffer("test.accumulator", ACCUMULATOR_BYTES);
            TrackedBuffer bins = gpu.hostBuffer("test.bins", BINS_BYTES);
            ExposureGpuHarness.Pipeline histogram = gpu.histogramPipeline(HdrFormat.RGBA32F, Metering.UNIFORM, DEFAULT_ROWS_PER_INVOCATION);
            gpu.bindHistogram(histogram, image, accumulator, null, 0);
            ExposureGpuHarness.EnginePass resolve = gpu.enginePass(HISTOGRAM, resolveDefines(), 2, 0);
            for (int frame = 0; frame < 2; frame++) {   // the second frame proves resolve left the accumulator clean
                gpu.context().submitAndWait(cmd -> {
                    gpu.dispatchHistogram(cmd, histogram, w, h, DEFAULT_ROWS_PER_INVOCATION, ExposureSettings.DEFAULTS);
                    ExposureGpuHarness.computeToCompute(cmd);
                    resolve.dispatch(cmd, List.of(accumulator, bins), null);
                    ExposureGpuHarness.computeToHost(cmd);
                });
                float[] got = ExposureGpuHarness.readFloats(bins, BINS);
                assertEquals(w * h, got[77], "frame " + frame);
                assertEquals(w * h, ExposureModelTest.sum(got), 0.0);
            }
        }
    }

    @Test
    void theLowWordCarriesIntoTheHighWord() {
        int w = 64, h = 64;
        int bin = 150;
        long start = 0xFFFF_FFFFL - 1000;
        long added = (long) w * h * ExposureModel.WEIGHT_ONE;
        float grey = ExposureModelTest.greyOfEV(ExposureModel.binCentreEV(bin, ExposureSettings.DEFAULTS));
        try (ExposureGpuHarness gpu = harness()) {
            ExposureGpuHarness.Image image = uploadHdr(gpu, flatImage(w, h, grey));
            TrackedBuffer accumulator = gpu.hostBuffer("test.accumulator", ACCUMULATOR_BYTES);
            int[] words = new int[2 * BINS];
            words[2 * bin] = (int) start;                     // lo close to wrapping
            words[2 * 7] = 0x1234_5678;                       // another bin with a high word already set
            words[2 * 7 + 1] = 3;
            ExposureGpuHarness.writeInts(accumulator, words);
            TrackedBuffer bins = gpu.hostBuffer("test.bins", BINS_BYTES);
            ExposureGpuHarness.Pipeline histogram = gpu.histogramPipeline(HdrFormat.RGBA32F, Metering.UNIFORM, 2);
            gpu.bindHistogram(histogram, image, accumulator, null, 0);
            gpu.context().submitAndWait(cmd -> {
                gpu.dispatchHistogram(cmd, histogram, w, h, 2, ExposureSettings.DEFAULTS);
                ExposureGpuHarness.computeToHost(cmd);
            });
            int[] after = ExposureGpuHarness.readInts(accumulator, 2 * BINS);
            long total = start + added;
            assertEquals((int) total, after[2 * bin], "lo");
            assertEquals(1, after[2 * bin + 1], "hi: exactly one carry");
            ExposureGpuHarness.EnginePass resolve = gpu.enginePass(HISTOGRAM, resolveDefines(), 2, 0);
            gpu.context().submitAndWait(cmd -> {
                resolve.dispatch(cmd, List.of(accumulator, bins), null);
                ExposureGpuHarness.computeToHost(cmd);
            });
            float[] got = ExposureGpuHarness.readFloats(bins, BINS);
            assertEquals((float) total / 256f, got[bin]);
            assertEquals((float) ((3L << 32) + 0x1234_5678L) / 256f, got[7]);
        }
    }

    // ---- the whole chain ---------------------------------------------------------------------------

    @Test
    void theChainMatchesTheModelFrameByFrame() {
        ExposureSettings s = ExposureSettings.DEFAULTS.withMetering(Metering.CENTRE);
        int w = 96, h = 64;
        Hdr sceneA = randomImage(HdrFormat.RGBA32F, w, h, 5, s);
        Hdr sceneB = flatImage(w, h, 40f);
        Hdr black = flatImage(w, h, 0f);
        // {scene, dt, reset}: first frame snaps, then B is brighter (adapts up), a reset snaps, black
        // holds, and A again adapts down.
        Object[][] frames = {{sceneA, 1 / 60f, false}, {sceneB, 1 / 60f, false}, {sceneB, 1 / 60f, false},
                {sceneB, 0.5f, false}, {sceneB, 1 / 60f, true}, {black, 1 / 60f, false}, {sceneA, 1 / 30f, false},
                {sceneA, 2f, false}};
        try (ExposureGpuHarness gpu = harness()) {
            List<ExposureGpuHarness.Image> images = new ArrayList<>();
            for (Hdr scene : List.of(sceneA, sceneB, black)) {
                images.add(uploadHdr(gpu, scene));
            }
            TrackedBuffer accumulator = gpu.hostBuffer("test.accumulator", ACCUMULATOR_BYTES);
            TrackedBuffer bins = gpu.hostBuffer("test.bins", BINS_BYTES);
            TrackedBuffer total = gpu.hostBuffer("test.total", TOTAL_BYTES);
            TrackedBuffer normalized = gpu.hostBuffer("test.normalized", NORMALIZED_BYTES);
            TrackedBuffer[] records = {gpu.hostBuffer("test.exposureA", EXPOSURE_BYTES), gpu.hostBuffer("test.exposureB", EXPOSURE_BYTES)};
            TrackedBuffer[] filtered = {gpu.hostBuffer("test.filteredA", NORMALIZED_BYTES), gpu.hostBuffer("test.filteredB", NORMALIZED_BYTES)};
            TrackedBuffer curve = gpu.hostBuffer("test.curve", CURVE_TABLE_BYTES);
            float[] table = s.curve().bake();
            ExposureGpuHarness.writeFloats(curve, table);
            List<ExposureGpuHarness.Pipeline> histograms = new ArrayList<>();
            for (ExposureGpuHarness.Image image : images) {
                ExposureGpuHarness.Pipeline p = gpu.histogramPipeline(HdrFormat.RGBA32F, s.metering(), DEFAULT_ROWS_PER_INVOCATION);
                gpu.bindHistogram(p, image, accumulator, null, 0);
                histograms.add(p);
            }
            ExposureGpuHarness.EnginePass resolve = gpu.enginePass(HISTOGRAM, resolveDefines(), 2, 0);
            ExposureGpuHarness.EnginePass exposure = gpu.enginePass(EXPOSURE, java.util.Map.of(), EXPOSURE_BINDINGS, EXPOSURE_PUSH_BYTES);

            float[] modelRecord = new float[EXPOSURE_FLOATS];
            float[] modelFiltered = new float[NORMALIZED_FLOATS];
            for (int f = 0; f < frames.length; f++) {
                Hdr scene = (Hdr) frames[f][0];
                float dt = (float) frames[f][1];
                boolean reset = (boolean) frames[f][2];
                ExposureGpuHarness.Pipeline histogram = histograms.get(scene == sceneA ? 0 : scene == sceneB ? 1 : 2);
                TrackedBuffer history = records[f % 2];
                TrackedBuffer output = records[(f + 1) % 2];
                TrackedBuffer filteredBefore = filtered[f % 2];
                TrackedBuffer filteredNow = filtered[(f + 1) % 2];
                gpu.context().submitAndWait(cmd -> {
                    gpu.dispatchHistogram(cmd, histogram, w, h, DEFAULT_ROWS_PER_INVOCATION, s);
                    ExposureGpuHarness.computeToCompute(cmd);
                    resolve.dispatch(cmd, List.of(accumulator, bins), null);
                    ExposureGpuHarness.computeToHost(cmd);
                });
                float[] gpuBins = ExposureGpuHarness.readFloats(bins, BINS);
                // The engine's reduction computes the total; here the host does, from the GPU's bins.
                float sum = ExposureModel.total(gpuBins);
                ExposureGpuHarness.writeFloats(total, new float[]{sum});
                float[] gpuHistory = ExposureGpuHarness.readFloats(history, EXPOSURE_FLOATS);
                float[] gpuFilteredBefore = ExposureGpuHarness.readFloats(filteredBefore, NORMALIZED_FLOATS);
                gpu.context().submitAndWait(cmd -> {
                    try (MemoryStack stack = stackPush()) {
                        ByteBuffer push = stack.malloc(EXPOSURE_PUSH_BYTES);
                        putExposurePush(push, s, dt, reset);
                        exposure.dispatch(cmd, List.of(bins, total, normalized, filteredBefore, filteredNow, history, output, curve), push);
                    }
                    ExposureGpuHarness.computeToHost(cmd);
                });
                float[] gpuNormalized = ExposureGpuHarness.readFloats(normalized, NORMALIZED_FLOATS);
                float[] gpuRecord = ExposureGpuHarness.readFloats(output, EXPOSURE_FLOATS);
                String at = "frame " + f;

                // Stage by stage, from the GPU's own inputs.
                float[] stageNormalized = ExposureModel.normalize(gpuBins, sum);
                for (int i = 0; i < NORMALIZED_FLOATS; i++) {
                    assertEquals(stageNormalized[i], gpuNormalized[i], Math.ulp(stageNormalized[i]) * 3, at + " normalized[" + i + "]");
                }
                assertRecord(ExposureModel.exposure(gpuNormalized, gpuFilteredBefore, gpuHistory, table, dt, reset, s).record(), gpuRecord,
                        at + " (stage)");

                // End to end, the model on its own.
                float[] modelNormalized = ExposureModel.normalize(ExposureModel.histogram(scene.rgba(), w, h, s.metering(), null, s));
                ExposureModel.Step step = ExposureModel.exposure(modelNormalized, modelFiltered, modelRecord, table, dt, reset, s);
                modelRecord = step.record();
                modelFiltered = step.filtered();
                assertRecord(modelRecord, gpuRecord, at + " (end to end)");
            }
            float[] last = ExposureGpuHarness.readFloats(records[frames.length % 2], EXPOSURE_FLOATS);
            assertEquals(1f, last[MEASURED]);
        }
    }

    static void assertRecord(float[] expected, float[] got, String at) {
        String both = at + ": expected " + Arrays.toString(expected) + ", got " + Arrays.toString(got);
        assertEquals(expected[VALID], got[VALID], both);
        assertEquals(expected[MEASURED], got[MEASURED], both);
        assertEquals(expected[PHASE], got[PHASE], both);
        assertEquals(expected[CLAMP_HIT], got[CLAMP_HIT], both);
        for (int i : new int[]{EV, MEAN_LOG_LUM, LOW_EV, HIGH_EV, TARGET_EV, CURVE_EV, SCENE_EV}) {
            assertEquals(expected[i], got[i], 1e-4f, "field " + i + ", " + both);
        }
        assertEquals(expected[MULTIPLIER], got[MULTIPLIER], Math.abs(expected[MULTIPLIER]) * 2e-4f, both);
    }

    // ---- tone mapping ----------------------------------------------------------------------------

    @ParameterizedTest(name = "target {0}, encode in shader {1}, ACES scale {2}")
    @MethodSource("tonemapCases")
    void tonemapMatchesTheModel(int targetFormat, boolean encodeSrgb, float acesScale) {
        int w = 64, h = 32;
        float multiplier = 0.37f;
        float[] rgba = new float[4 * w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = 4 * (y * w + x);
                for (int c = 0; c < 3; c++) {
                    rgba[i + c] = (float) Math.pow(2, (x - 40) / 5.0 + c * 0.7 - y * 0.05);
                }
                rgba[i + 3] = 1f;
            }
        }
        rgba[0] = Float.NaN;
        rgba[5] = Float.POSITIVE_INFINITY;
        rgba[10] = -3f;
        try (ExposureGpuHarness gpu = harness()) {
            ExposureGpuHarness.Image hdr = gpu.image("test.hdr", VK_FORMAT_R32G32B32A32_SFLOAT, w, h,
                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
            gpu.upload(hdr, ExposureGpuHarness.floats(rgba), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            ExposureGpuHarness.Image target = gpu.image("test.target", targetFormat, w, h,
                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
            TrackedBuffer record = gpu.hostBuffer("test.exposure", EXPOSURE_BYTES);
            float[] values = new float[EXPOSURE_FLOATS];
            values[EV] = -ExposureModel.log2(multiplier);
            values[MULTIPLIER] = multiplier;
            values[VALID] = 1f;
            ExposureGpuHarness.writeFloats(record, values);
            TrackedBuffer readback = gpu.hostBuffer("test.readback", 4L * w * h);
            ExposureGpuHarness.Pipeline tonemap = gpu.tonemapPipeline(targetFormat, encodeSrgb, acesScale);
            gpu.bindTonemap(tonemap, hdr, gpu.nearestSampler(), record);
            gpu.drawTonemap(tonemap, target, readback);
            readback.invalidate(0, 4L * w * h);
            int worst = 0;
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int i = 4 * (y * w + x);
                    for (int c = 0; c < 4; c++) {
                        int got = MemoryUtil.memGetByte(readback.mappedAddress() + i + c) & 0xff;
                        int expected = c == 3 ? 255 : Math.round(255f * ExposureModel.srgbEncode(
                                ExposureModel.tonemap(rgba[i + c], multiplier, acesScale)));
                        worst = Math.max(worst, Math.abs(got - expected));
                        assertTrue(Math.abs(got - expected) <= 1, "pixel (" + x + ", " + y + ") channel " + c
                                + ": expected " + expected + ", got " + got);
                    }
                }
            }
            assertTrue(worst <= 1);
        }
    }

    static Stream<Arguments> tonemapCases() {
        return Stream.of(Arguments.of(VK_FORMAT_R8G8B8A8_UNORM, true, 1f),
                Arguments.of(VK_FORMAT_R8G8B8A8_SRGB, false, 1f),
                Arguments.of(VK_FORMAT_R8G8B8A8_UNORM, true, 0.6f));
    }
}

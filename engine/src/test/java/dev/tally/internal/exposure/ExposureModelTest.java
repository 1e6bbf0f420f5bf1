package dev.tally.internal.exposure;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureSettings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static dev.tally.exposure.ExposureShaderLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/** The CPU reference of the auto-exposure chain; pure Java, no GPU. */
class ExposureModelTest {
    private static final ExposureSettings S = ExposureSettings.DEFAULTS;

    // ---- helpers ---------------------------------------------------------------------------------

    /** A grey whose luminance is 2^ev (channels equal; the Rec. 709 weights sum to 1 within a ULP). */
    static float greyOfEV(float ev) {
        return (float) Math.pow(2.0, ev);
    }

    static float[] image(int w, int h, float grey) {
        float[] rgba = new float[4 * w * h];
        for (int i = 0; i < w * h; i++) {
            rgba[4 * i] = grey;
            rgba[4 * i + 1] = grey;
            rgba[4 * i + 2] = grey;
            rgba[4 * i + 3] = 1f;
        }
        return rgba;
    }

    static void setPixel(float[] rgba, int w, int x, int y, float r, float g, float b) {
        int i = 4 * (y * w + x);
        rgba[i] = r;
        rgba[i + 1] = g;
        rgba[i + 2] = b;
    }

    static float[] uniformHistogram(float[] rgba, int w, int h) {
        return ExposureModel.histogram(rgba, w, h, Metering.UNIFORM, null, S);
    }

    static double sum(float[] bins) {
        double s = 0;
        for (float b : bins) {
            s += b;
        }
        return s;
    }

    /** A normalized histogram (valid) from {bin, probability} pairs. */
    static float[] normalizedOf(double... binProbabilityPairs) {
        float[] n = new float[NORMALIZED_FLOATS];
        for (int i = 0; i < binProbabilityPairs.length; i += 2) {
            n[(int) binProbabilityPairs[i]] = (float) binProbabilityPairs[i + 1];
        }
        n[NORMALIZED_VALID] = 1f;
        return n;
    }

    static float centre(int k) {
        return ExposureModel.binCentreEV(k, S);
    }

    // ---- binning ---------------------------------------------------------------------------------

    @Test
    void binGeometryMatchesTheSettings() {
        assertEquals(8.5f, S.binsPerEV());
        assertEquals(30f / 255f, S.evPerBin());
        assertEquals(-10f, ExposureModel.binLowerEV(1, S));
        assertEquals(20f, ExposureModel.binLowerEV(255, S) + S.evPerBin(), 1e-5f);
        for (int k = 1; k < 256; k++) {
            float c = centre(k);
            assertEquals(k, ExposureModel.bin(greyOfEV(c), greyOfEV(c), greyOfEV(c), S), "centre of bin " + k);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 64, 100, 200, 255})
    void aUniformGreyImageLandsAllWeightInItsBin(int k) {
        int w = 37, h = 23;   // not multiples of the 16 x 64 tile: partial groups on both axes
        float[] bins = uniformHistogram(image(w, h, greyOfEV(centre(k))), w, h);
        for (int i = 0; i < BINS; i++) {
            assertEquals(i == k ? w * h : 0f, bins[i], "bin " + i);
        }
    }

    @Test
    void middleGreyLandsInBin64() {
        // log2(0.18) = -2.474 -> (7.526 EV above minEV) * 8.5 = 63.97 -> bin 64.
        assertEquals(64, ExposureModel.bin(0.18f, 0.18f, 0.18f, S));
    }

    @Test
    void aTwoLevelImageSplitsItsWeight() {
        int w = 40, h = 30;
        float[] rgba = image(w, h, greyOfEV(centre(180)));
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < 10; x++) {
                float g = greyOfEV(centre(50));
                setPixel(rgba, w, x, y, g, g, g);
            }
        }
        float[] bins = uniformHistogram(rgba, w, h);
        assertEquals(300f, bins[50]);
        assertEquals(900f, bins[180]);
        assertEquals(w * h, sum(bins));
    }

    @Test
    void aGradientAcrossTheWholeRangeFillsEveryBinEvenly() {
        int perBin = 16;
        int w = 255, h = perBin;                 // 4080 samples, 16 per bin
        int n = w * h;
        float[] rgba = new float[4 * n];
        for (int i = 0; i < n; i++) {
            // Sample i sits (i + 0.5) / n of the way across [minEV, maxEV]: at least 1/32 of a bin from any edge.
            double ev = S.minEV() + (i + 0.5) / n * (S.maxEV() - S.minEV());
            float g = (float) Math.pow(2.0, ev);
            rgba[4 * i] = g;
            rgba[4 * i + 1] = g;
            rgba[4 * i + 2] = g;
        }
        float[] bins = uniformHistogram(rgba, w, h);
        assertEquals(0f, bins[0]);
        for (int k = 1; k < BINS; k++) {
            assertEquals(perBin, bins[k], "bin " + k);
        }
        ExposureModel.Metered m = ExposureModel.meter(ExposureModel.normalize(bins), S);
        assertEquals(5f, m.meanEV(), 1e-4f, "a flat histogram's trimmed mean is the middle of the range");
        assertEquals(-7f, m.lowEV(), 1e-4f, "10 % of the way up the range");
        assertEquals(17f, m.highEV(), 1e-4f, "90 % of the way up the range");
    }

    @Test
    void anAllBlackImageFallsInBinZero() {
        int w = 20, h = 17;
        float[] bins = uniformHistogram(image(w, h, 0f), w, h);
        assertEquals(w * h, bins[0]);
        assertEquals(w * h, sum(bins));
        // Negative luminance and -0 are black too.
        assertEquals(0, ExposureModel.bin(-1f, -1f, -1f, S));
        assertEquals(0, ExposureModel.bin(-0f, -0f, -0f, S));
        assertEquals(0, ExposureModel.bin(1f, -1f, 0f, S), "0.2126 - 0.7152 < 0");
    }

    @Test
    void nanAndInfinityFallInBinZero() {
        int w = 19, h = 21;
        float[] bins = uniformHistogram(image(w, h, Float.NaN), w, h);
        assertEquals(w * h, bins[0]);
        assertEquals(w * h, sum(bins));
        float g = greyOfEV(centre(100));
        assertEquals(0, ExposureModel.bin(Float.POSITIVE_INFINITY, g, g, S));
        assertEquals(0, ExposureModel.bin(g, Float.NEGATIVE_INFINITY, g, S));
        assertEquals(0, ExposureModel.bin(g, g, Float.NaN, S), "one NaN channel is enough");
    }

    /**
     * histogram.comp tests the luminance, not the channels, for NaN and Inf: that holds because finite channels cannot
     * make an infinite luminance (the weights sum to at most 1), so a non-finite luminance always means a non-finite channel.
     */
    @Test
    void finiteChannelsNeverOverflowTheLuminance() {
        float max = Float.MAX_VALUE;
        assertEquals(max, ExposureModel.luminance(max, max, max), "the largest channels give FLT_MAX exactly");
        float[] big = {max, Math.nextDown(max), 0x1p127f, 0f};
        for (float r : big) {
            for (float g : big) {
                for (float b : big) {
                    assertTrue(Float.isFinite(ExposureModel.luminance(r, g, b)), r + ", " + g + ", " + b);
                }
            }
        }
    }

    @Test
    void outOfRangeValuesGoToTheEndBins() {
        assertEquals(1, ExposureModel.bin(greyOfEV(-10.01f), greyOfEV(-10.01f), greyOfEV(-10.01f), S), "below minEV: the edge bin");
        assertEquals(1, ExposureModel.bin(1e-30f, 1e-30f, 1e-30f, S), "far below minEV: the edge bin");
        assertEquals(1, ExposureModel.bin(0x1p-10f, 0x1p-10f, 0x1p-10f, S), "exactly minEV starts bin 1");
        assertEquals(255, ExposureModel.bin(0x1p20f, 0x1p20f, 0x1p20f, S), "exactly maxEV");
        assertEquals(255, ExposureModel.bin(1e30f, 1e30f, 1e30f, S), "far above maxEV");
        assertEquals(255, ExposureModel.bin(Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE, S),
                "the largest finite channels count as above range");
        // A denormal luminance is below range here; a device that flushes denormals sees black (bin 0).
        assertEquals(1, ExposureModel.bin(Float.MIN_VALUE, Float.MIN_VALUE, Float.MIN_VALUE, S), "denormal: below range");
    }

    @Test
    void oneBrightPixelGetsItsOwnBinAndDoesNotMoveTheMean() {
        int w = 100, h = 100;
        float greyEV = centre(100);
        float[] rgba = image(w, h, greyOfEV(greyEV));
        float bright = 1e4f;                               // EV 13.29: (13.29 + 10) * 8.5 = 197.9
        setPixel(rgba, w, 63, 41, bright, bright, bright);
        int brightBin = ExposureModel.bin(bright, bright, bright, S);
        assertEquals(198, brightBin);
        float[] bins = uniformHistogram(rgba, w, h);
        assertEquals(1f, bins[brightBin]);
        assertEquals(w * h - 1, bins[100]);
        // The bright pixel is the top 0.01 % of samples: outside [10 %, 90 %], it leaves the mean alone.
        assertEquals(greyEV, ExposureModel.meanLogLuminance(ExposureModel.normalize(bins), S), 1e-6f);
    }

    @Test
    void oneBrightPixelOnBlackIsAllThatIsMetered() {
        int w = 64, h = 48;
        float[] rgba = image(w, h, 0f);
        float g = greyOfEV(centre(170));
        setPixel(rgba, w, 5, 7, g, g, g);
        float[] normalized = ExposureModel.normalize(uniformHistogram(rgba, w, h));
        assertEquals((w * h - 1f) / (w * h), normalized[0], 1e-6f);
        assertEquals(centre(170), ExposureModel.meanLogLuminance(normalized, S), 1e-6f, "bin 0 is never metered");
    }

    // ---- metering weights -------------------------------------------------------------------------

    @Test
    void centreWeightsFallOffToTheFloor() {
        assertEquals(1f, ExposureModel.centreWeight(50, 50, 101, 101), "exact centre of an odd image");
        assertEquals(256, ExposureModel.quantizeWeight(1f));
        assertEquals(ExposureModel.CENTRE_WEIGHT_FLOOR, ExposureModel.centreWeight(0, 0, 101, 101), "corner");
        assertEquals(13, ExposureModel.quantizeWeight(ExposureModel.CENTRE_WEIGHT_FLOOR), "0.05 * 256 = 12.8 -> 13");
        // Halfway to the edge along x: u = 0.5 -> 1 - 0.25.
        assertEquals(0.75f, ExposureModel.centreWeight(74, 49, 100, 99), 0.02f);
        // Symmetric and monotonic along the axis.
        for (int x = 0; x < 50; x++) {
            assertEquals(ExposureModel.centreWeight(x, 10, 100, 21), ExposureModel.centreWeight(99 - x, 10, 100, 21));
            assertTrue(ExposureModel.centreWeight(x, 10, 100, 21) <= ExposureModel.centreWeight(x + 1, 10, 100, 21));
        }
    }

    @Test
    void quantizationRoundsToTheNearestStep() {
        assertEquals(0, ExposureModel.quantizeWeight(0f));
        assertEquals(0, ExposureModel.quantizeWeight(-3f));
        assertEquals(256, ExposureModel.quantizeWeight(7f));
        assertEquals(0, ExposureModel.quantizeWeight(Float.NaN));
        assertEquals(0, ExposureModel.quantizeWeight(Float.POSITIVE_INFINITY));
        assertEquals(128, ExposureModel.quantizeWeight(0.5f));
        assertEquals(1, ExposureModel.quantizeWeight(1f / 256f));
        assertEquals(0, ExposureModel.quantizeWeight(0.49f / 256f));
    }

    @Test
    void centreWeightedHistogramSumsTheQuantizedWeights() {
        int w = 53, h = 31;
        float[] bins = ExposureModel.histogram(image(w, h, greyOfEV(centre(90))), w, h, Metering.CENTRE, null, S);
        long units = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                units += ExposureModel.quantizeWeight(ExposureModel.centreWeight(x, y, w, h));
            }
        }
        assertEquals(units / 256.0, bins[90], 0.0);
        assertEquals(units / 256.0, sum(bins), 0.0);
        assertTrue(bins[90] < w * h && bins[90] > 0.05 * w * h);
    }

    @Test
    void aMaskWeightsByItsRedChannel() {
        int w = 32, h = 8;
        float[] rgba = image(w, h, greyOfEV(centre(120)));
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w / 2; x++) {
                float g = greyOfEV(centre(30));
                setPixel(rgba, w, x, y, g, g, g);
            }
        }
        float[] mask = new float[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                mask[y * w + x] = x < w / 2 ? 0f : 0.5f;   // the left half is not metered at all
            }
        }
        float[] bins = ExposureModel.histogram(rgba, w, h, Metering.MASK, mask, S);
        assertEquals(0f, bins[30]);
        assertEquals(w * h / 2 * 0.5f, bins[120]);
    }

    @Test
    void aSmallerMaskIsLookedUpNearest() {
        // A 2 x 1 mask over a 10-wide image: pixels 0..4 read texel 0, pixels 5..9 texel 1.
        for (int x = 0; x < 10; x++) {
            assertEquals(x < 5 ? 0 : 1, ExposureModel.maskTexel(x, 10, 2), "x = " + x);
        }
        for (int x = 0; x < 37; x++) {
            assertEquals(x, ExposureModel.maskTexel(x, 37, 37), "same size maps 1:1");
        }
        int w = 10, h = 4;
        ExposureModel.HdrImage grey = (x, y, rgb) -> Arrays.fill(rgb, greyOfEV(centre(77)));
        float[] bins = ExposureModel.accumulate(grey, w, h, Metering.MASK, new float[]{1f, 0f}, 2, 1, S,
                DEFAULT_ROWS_PER_INVOCATION).resolve();
        assertEquals(20f, bins[77]);
    }

    @Test
    void anAllZeroMaskMakesTheHistogramInvalid() {
        int w = 16, h = 16;
        float[] bins = ExposureModel.histogram(image(w, h, 1f), w, h, Metering.MASK, new float[w * h], S);
        assertEquals(0.0, sum(bins));
        float[] normalized = ExposureModel.normalize(bins);
        assertEquals(0f, normalized[NORMALIZED_VALID]);
        for (int i = 0; i < BINS; i++) {
            assertEquals(0f, normalized[i]);
        }
    }

    @Test
    void theTileHeightDoesNotChangeTheResult() {
        int w = 45, h = 77;
        SplittableRandom r = new SplittableRandom(7);
        float[] rgba = new float[4 * w * h];
        for (int i = 0; i < rgba.length; i++) {
            rgba[i] = (float) Math.pow(2, r.nextDouble(-14, 24));
        }
        float[] reference = ExposureModel.accumulate(ExposureModel.HdrImage.of(rgba, w, h), w, h, Metering.CENTRE,
                null, 0, 0, S, 1).resolve();
        for (int rows : new int[]{2, 4, 5, 64}) {
            assertArrayEquals(reference, ExposureModel.accumulate(ExposureModel.HdrImage.of(rgba, w, h), w, h,
                    Metering.CENTRE, null, 0, 0, S, rows).resolve(), "rows " + rows);
        }
    }

    // ---- normalization ----------------------------------------------------------------------------

    @Test
    void normalizeDividesByTheTotalAndFlagsValidity() {
        float[] bins = new float[BINS];
        bins[0] = 25f;
        bins[10] = 25f;
        bins[200] = 50f;
        float[] n = ExposureModel.normalize(bins);
        assertEquals(NORMALIZED_FLOATS, n.length);
        assertEquals(0.25f, n[0]);
        assertEquals(0.25f, n[10]);
        assertEquals(0.5f, n[200]);
        assertEquals(1f, n[NORMALIZED_VALID]);
        for (float badTotal : new float[]{0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            float[] invalid = ExposureModel.normalize(bins, badTotal);
            assertEquals(0f, invalid[NORMALIZED_VALID], "total " + badTotal);
            for (int i = 0; i < BINS; i++) {
                assertEquals(0f, invalid[i]);
            }
        }
    }

    // ---- percentiles ------------------------------------------------------------------------------

    @Test
    void percentilesAreInSampleUnitsWithPartialBinsFractional() {
        // 20 % of the samples in bin 50, 80 % in bin 150. The [10 %, 90 %] window takes 0.1 of bin 50
        // (half of it) and 0.7 of bin 150.
        float[] n = normalizedOf(50, 0.2, 150, 0.8);
        double expected = (0.1 * centre(50) + 0.7 * centre(150)) / 0.8;
        float mean = ExposureModel.meanLogLuminance(n, S);
        assertEquals(expected, mean, 1e-5);
        // Counting whole bins (no fractional edges) would give the plain weighted mean instead.
        double wholeBins = 0.2 * centre(50) + 0.8 * centre(150);
        assertTrue(Math.abs(mean - wholeBins) > 0.5, "whole bins: " + wholeBins + ", sample units: " + mean);
    }

    @Test
    void percentilesAreNotBinIndices() {
        // Half the samples in bin 10, half in bin 240. Percentiles of the bin axis (bins 25.5..229.5)
        // would contain no sample at all; in sample units each bin gives 0.4 of the window.
        float[] n = normalizedOf(10, 0.5, 240, 0.5);
        assertEquals((centre(10) + centre(240)) / 2, ExposureModel.meanLogLuminance(n, S), 1e-5);
        // Three bins, asymmetric: the window cuts into both outer bins.
        float[] three = normalizedOf(20, 0.15, 100, 0.7, 200, 0.15);
        double sampleUnits = (0.05 * centre(20) + 0.7 * centre(100) + 0.05 * centre(200)) / 0.8;
        double wholeBins = 0.15 * centre(20) + 0.7 * centre(100) + 0.15 * centre(200);
        float mean = ExposureModel.meanLogLuminance(three, S);
        assertEquals(sampleUnits, mean, 1e-5);
        assertTrue(Math.abs(mean - wholeBins) > 0.2, "whole bins " + wholeBins + " vs " + mean);
        ExposureModel.Metered m = ExposureModel.meter(three, S);
        // The 10 % sample is 2/3 of the way through bin 20, the 90 % sample 1/3 into bin 200.
        assertEquals(ExposureModel.binLowerEV(20, S) + (0.10 / 0.15) * S.evPerBin(), m.lowEV(), 1e-4);
        assertEquals(ExposureModel.binLowerEV(200, S) + (0.05 / 0.15) * S.evPerBin(), m.highEV(), 1e-4);
    }

    @Test
    void binZeroIsLeftOutOfThePercentiles() {
        // 50 % black: the window covers 10 %..90 % of the other half, here all in one bin.
        float[] n = normalizedOf(0, 0.5, 80, 0.05, 90, 0.4, 160, 0.05);
        assertEquals(centre(90), ExposureModel.meanLogLuminance(n, S), 1e-5);
    }

    @Test
    void theHistogramMeanEqualsABruteForceTrimmedMeanOfTheSamples() {
        SplittableRandom r = new SplittableRandom(42);
        for (int trial = 0; trial < 20; trial++) {
            int w = 1 + r.nextInt(90), h = 1 + r.nextInt(90);
            int n = w * h;
            float[] rgba = new float[4 * n];
            double[] evs = new double[n];
            int centreBin = 20 + r.nextInt(200);
            for (int i = 0; i < n; i++) {
                int k = Math.max(1, Math.min(255, centreBin + (int) Math.round(r.nextGaussian() * 15)));
                evs[i] = centre(k);
                float g = greyOfEV(centre(k));
                rgba[4 * i] = g;
                rgba[4 * i + 1] = g;
                rgba[4 * i + 2] = g;
            }
            float low = (float) r.nextDouble(0, 0.45), high = (float) r.nextDouble(0.55, 1);
            ExposureSettings s = S.withPercentiles(low, high);
            // Samples sorted by EV; sample j covers ranks [j, j + 1); average EV over ranks [low n, high n].
            Arrays.sort(evs);
            double a = low * n, b = high * n, num = 0, den = 0;
            for (int j = 0; j < n; j++) {
                double overlap = Math.min(j + 1, b) - Math.max(j, a);
                if (overlap > 0) {
                    num += overlap * evs[j];
                    den += overlap;
                }
            }
            float mean = ExposureModel.meanLogLuminance(
                    ExposureModel.normalize(ExposureModel.histogram(rgba, w, h, Metering.UNIFORM, null, s)), s);
            assertEquals(num / den, mean, 2e-4, "trial " + trial + " (" + w + " x " + h + ")");
        }
    }

    // ---- exposure --------------------------------------------------------------------------------

    @Test
    void targetEVPutsTheMeanOnMiddleGrey() {
        float log2Grey = ExposureModel.log2(0.18f);
        assertEquals(0f, ExposureModel.targetEV(log2Grey, S), 1e-6f);
        assertEquals(1f, ExposureModel.multiplier(ExposureModel.targetEV(log2Grey, S)), 1e-6f);
        // A scene 3 stops brighter than middle grey needs 1/8 the multiplier.
        assertEquals(0.125f, ExposureModel.multiplier(ExposureModel.targetEV(log2Grey + 3, S)), 1e-6f);
        // +1 stop of compensation: twice the multiplier, a brighter image.
        ExposureSettings plusOne = S.withCompensation(1f);
        assertEquals(2f, ExposureModel.multiplier(ExposureModel.targetEV(log2Grey, plusOne)), 1e-6f);
        // A different middle grey: mean 0.5 on grey 0.5 is exposure 0.
        assertEquals(0f, ExposureModel.targetEV(-1f, S.withMiddleGrey(0.5f)), 1e-6f);
    }

    @Test
    void theExposedMeanLandsOnMiddleGrey() {
        int w = 33, h = 33;
        float greyEV = centre(140);     // EV 6.41
        float[] record = ExposureModel.exposure(ExposureModel.normalize(uniformHistogram(image(w, h, greyOfEV(greyEV)), w, h)),
                new float[EXPOSURE_FLOATS], 1 / 60f, false, S);
        assertEquals(0.18f, greyOfEV(greyEV) * record[MULTIPLIER], 1e-5f);
    }

    // ---- adaptation -------------------------------------------------------------------------------

    /** Frames of dt until |ev - target| <= within, starting fromStops away. */
    static int framesToConverge(float fromStops, float within, float dt, ExposureSettings s) {
        float target = 2f;
        float ev = target - fromStops;           // fromStops > 0: the scene got brighter than the exposure
        for (int frame = 1; frame < 100_000; frame++) {
            ev = ExposureModel.adapt(ev, target, dt, s);
            if (Math.abs(ev - target) <= within) {
                return frame;
            }
        }
        return -1;
    }

    @ParameterizedTest
    @CsvSource({
            // from (stops, +: brighter scene), speed used, dt, transition distance D
            "5, 3, 0.016666668, 1",      // brightening from 5 stops: (5 - 1 + ln 10) / 3 = 2.1009 s
            "-5, 1, 0.016666668, 1",     // darkening: (5 - 1 + ln 10) / 1 = 6.3026 s
            "0.8, 3, 0.016666668, 1",    // already within a stop: ln(8) / 3 = 0.6931 s
            "-0.8, 1, 0.0069444445, 1",  // ln(8) / 1 at 144 Hz
            "12, 3, 0.033333335, 1",     // 30 Hz, far away
            "5, 3, 0.016666668, 1.5",    // (5 - 1.5) / 3 + (1.5 / 3) ln 15 = 2.5207 s
            "-8, 1, 0.016666668, 1.5",   // 6.5 + 1.5 ln 15 = 10.562 s
            "1.2, 3, 0.016666668, 1.5",  // (1.5 / 3) ln 12 = 1.2425 s
    })
    void convergenceTimeMatchesTheConfiguredSpeeds(float from, float speed, float dt, float d) {
        ExposureSettings s = S.withTransition(d);   // brighten 3, darken 1
        assertEquals(speed, from > 0 ? s.brightenSpeed() : s.darkenSpeed());
        double seconds = ExposureModel.convergenceSeconds(Math.abs(from), 0.1, speed, d);
        double expected = Math.abs(from) > d ? (Math.abs(from) - d + d * Math.log(d / 0.1)) / speed
                : d * Math.log(Math.abs(from) / 0.1) / speed;
        assertEquals(expected, seconds, 1e-12);
        float target = 2f;
        float ev = target - from;
        int frames = 0;
        while (Math.abs(ev - target) > 0.1f && frames < 100_000) {
            ev = ExposureModel.adapt(ev, target, dt, s);
            frames++;
        }
        // The law is integrated exactly per frame, so the first frame inside 0.1 EV is ceil(T / dt),
        // give or take one frame of float rounding at the threshold.
        int analytic = (int) Math.ceil(seconds / dt);
        assertTrue(Math.abs(frames - analytic) <= 1, "frames " + frames + ", analytic " + analytic + " (" + seconds + " s)");
    }

    private static final ExposureSettings ONE_STOP = S.withTransition(1f);

    @Test
    void brightenAndDarkenUseTheirOwnSpeeds() {
        ExposureSettings s = S.withSpeeds(4f, 0.5f);
        // Linear region: 0.25 s moves 1 stop up at 4 stops/s, 0.125 stops down at 0.5 stops/s.
        assertEquals(-4f, ExposureModel.adapt(-5f, 0f, 0.25f, s), 1e-6f, "target above: scene got brighter");
        assertEquals(4.875f, ExposureModel.adapt(5f, 0f, 0.25f, s), 1e-6f, "target below: scene got darker");
    }

    @Test
    void theLinearPartStopsAtOneStopAndTheRestIsExponential() {
        // 3 stops away at 3 stops/s for 0.5 s: 2/3 s would reach one stop, so it stays linear: 1.5 left.
        assertEquals(-1.5f, ExposureModel.adapt(-3f, 0f, 0.5f, ONE_STOP), 1e-6f);
        // For 1 s: one stop left after 2/3 s, then exp(-3 * 1/3) of it.
        assertEquals(-Math.exp(-1.0), ExposureModel.adapt(-3f, 0f, 1f, ONE_STOP), 1e-6);
        // Within one stop: pure exponential, e^-(speed dt).
        assertEquals(0.5 * Math.exp(-0.3), ExposureModel.adapt(0.5f, 0f, 0.3f, ONE_STOP), 1e-6, "darkening at 1 stop/s");
    }

    @Test
    void theDefaultTransitionIsOneAndAHalfStops() {
        assertEquals(1.5f, S.transitionEV());
        // 4 stops away at 3 stops/s: linear for 2.5 / 3 s, then 1.5 exp(-(3 / 1.5) t) for the rest.
        assertEquals(-2.5f, ExposureModel.adapt(-4f, 0f, 0.5f, S), 1e-6f, "still linear after 0.5 s");
        assertEquals(-1.5 * Math.exp(-2.0 * (1.0 - 2.5 / 3)), ExposureModel.adapt(-4f, 0f, 1f, S), 1e-6, "exponential after 5/6 s");
        // Within the transition: rate speed / D.
        assertEquals(1.2 * Math.exp(-0.3 / 1.5), ExposureModel.adapt(1.2f, 0f, 0.3f, S), 1e-6, "darkening at 1 stop/s");
        // The speed is continuous where the two parts meet: the linear rate equals D x (speed / D).
        float justOutside = ExposureModel.adapt(-1.5001f, 0f, 0.01f, S);
        float justInside = ExposureModel.adapt(-1.4999f, 0f, 0.01f, S);
        assertEquals((justOutside + 1.5001f) / 0.01f, (justInside + 1.4999f) / 0.01f, 0.01f);
    }

    @Test
    void adaptationIsContinuousAndNeverOvershoots() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            float prev = (float) r.nextDouble(-20, 20), target = (float) r.nextDouble(-20, 20);
            float dt = (float) r.nextDouble(0, 2);
            float ev = ExposureModel.adapt(prev, target, dt, S);
            assertTrue(Math.min(prev, target) <= ev && ev <= Math.max(prev, target), prev + " -> " + target + ": " + ev);
            assertTrue(Math.abs(ev - target) <= Math.abs(prev - target));
        }
        // Across the one-stop boundary the step changes smoothly.
        float justOutside = ExposureModel.adapt(-1.0001f, 0f, 0.1f, ONE_STOP);
        float justInside = ExposureModel.adapt(-0.9999f, 0f, 0.1f, ONE_STOP);
        assertEquals(justOutside, justInside, 3e-4f);
    }

    @Test
    void adaptationDoesNotDependOnTheFrameRate() {
        // 2 s from 6 stops below at 3 stops/s: 5/3 s linear, then 1/3 s exponential.
        float oneStep = ExposureModel.adapt(-6f, 0f, 2f, ONE_STOP);
        assertEquals(-Math.exp(-1.0), oneStep, 1e-6);
        float ev60 = -6f, ev240 = -6f;
        for (int i = 0; i < 120; i++) {
            ev60 = ExposureModel.adapt(ev60, 0f, 1 / 60f, ONE_STOP);
        }
        for (int i = 0; i < 480; i++) {
            ev240 = ExposureModel.adapt(ev240, 0f, 1 / 240f, ONE_STOP);
        }
        // Only float rounding separates them (a few hundred steps of ~1e-7 each).
        assertEquals(oneStep, ev60, 1e-4f);
        assertEquals(oneStep, ev240, 1e-4f);
    }

    @Test
    void firstFrameResetAndMissingHistorySnap() {
        assertEquals(7f, ExposureModel.adapt(Float.NaN, 7f, 1 / 60f, S), "no history");
        assertEquals(7f, ExposureModel.adapt(-3f, true, 7f, 1 / 60f, true, S), "reset");
        assertEquals(7f, ExposureModel.adapt(-3f, false, 7f, 1 / 60f, false, S), "history not valid");
        // A zeroed history record is the first frame: snap, no flash from ev 0.
        float[] normalized = normalizedOf(200, 1.0);
        float[] first = ExposureModel.exposure(normalized, new float[EXPOSURE_FLOATS], 1 / 60f, false, S);
        assertEquals(1f, first[VALID]);
        assertEquals(1f, first[MEASURED]);
        assertEquals(first[TARGET_EV], first[EV]);
        assertEquals(ExposureModel.targetEV(centre(200), S), first[EV], 1e-5f);
        assertEquals(ExposureModel.multiplier(first[EV]), first[MULTIPLIER]);
        // A later frame with a different scene adapts; with reset it snaps.
        float[] darker = normalizedOf(120, 1.0);
        float[] adapted = ExposureModel.exposure(darker, first, 1 / 60f, false, S);
        assertTrue(adapted[EV] < first[EV] && adapted[EV] > adapted[TARGET_EV], Arrays.toString(adapted));
        assertEquals(first[EV] - 1 / 60f, adapted[EV], 1e-5f, "darkening at 1 stop/s, far from the target");
        float[] snapped = ExposureModel.exposure(darker, first, 1 / 60f, true, S);
        assertEquals(snapped[TARGET_EV], snapped[EV]);
    }

    @Test
    void dtThatIsNotPositiveAndFiniteChangesNothing() {
        for (float dt : new float[]{0f, -1f, Float.NaN, Float.POSITIVE_INFINITY}) {
            assertEquals(-4f, ExposureModel.adapt(-4f, 3f, dt, S), "dt " + dt);
        }
    }

    @Test
    void aZeroTotalLeavesTheExposureUnchanged() {
        float[] history = ExposureModel.exposure(normalizedOf(90, 1.0), new float[EXPOSURE_FLOATS], 1 / 60f, false, S);
        float[] bins = new float[BINS];   // every pixel had weight 0
        float[] normalized = ExposureModel.normalize(bins, ExposureModel.total(bins));
        assertEquals(0f, normalized[NORMALIZED_VALID]);
        float[] next = ExposureModel.exposure(normalized, history, 1 / 60f, false, S);
        assertEquals(history[EV], next[EV]);
        assertEquals(history[MULTIPLIER], next[MULTIPLIER]);
        assertEquals(history[MEAN_LOG_LUM], next[MEAN_LOG_LUM]);
        assertEquals(history[TARGET_EV], next[TARGET_EV]);
        assertEquals(1f, next[VALID]);
        assertEquals(0f, next[MEASURED]);
        // An all-black frame: valid histogram, but nothing in bins 1..255 to meter. Also unchanged.
        float[] black = ExposureModel.exposure(normalizedOf(0, 1.0), history, 1 / 60f, false, S);
        assertEquals(history[EV], black[EV]);
        assertEquals(0f, black[MEASURED]);
    }

    @Test
    void aResetWithoutMeasurementKeepsTheEvButSnapsOnTheNextMeasurement() {
        float[] history = ExposureModel.exposure(normalizedOf(90, 1.0), new float[EXPOSURE_FLOATS], 1 / 60f, false, S);
        float[] invalid = ExposureModel.normalize(new float[BINS], 0f);
        float[] reset = ExposureModel.exposure(invalid, history, 1 / 60f, true, S);
        assertEquals(history[EV], reset[EV]);
        assertEquals(0f, reset[VALID]);
        float[] next = ExposureModel.exposure(normalizedOf(200, 1.0), reset, 1 / 60f, false, S);
        assertEquals(next[TARGET_EV], next[EV], "snapped");
    }

    @Test
    void noHistoryAndNoMeasurementGivesMultiplierOne() {
        float[] record = ExposureModel.exposure(ExposureModel.normalize(new float[BINS], 0f), new float[EXPOSURE_FLOATS],
                1 / 60f, false, S);
        assertEquals(0f, record[EV]);
        assertEquals(1f, record[MULTIPLIER]);
        assertEquals(0f, record[VALID]);
        assertEquals(0f, record[MEASURED]);
    }

    @Test
    void aSceneDarkeningPastTheRangeKeepsItsTargetMonotone() {
        // 0.1 EV per step over 20 stops: a dark room (70 % of the pixels, 2 stops around EV -1) with a
        // bright window (30 %, 2 stops around EV +5). The room leaves the range first; were its
        // pixels dropped, the window alone would be metered and the target would jump up.
        int w = 40, h = 30;
        ExposureSettings s = S.withStability(0f, 0f);
        float previous = Float.NaN;
        float[] history = new float[EXPOSURE_FLOATS];
        for (int k = 0; k <= 200; k++) {
            float[] rgba = new float[4 * w * h];
            for (int i = 0; i < w * h; i++) {
                int n = w * h, bright = 360;
                double ev = i < n - bright ? -1 + 2 * ((i + 0.5) / (n - bright) - 0.5) : 5 + 2 * ((i - (n - bright) + 0.5) / bright - 0.5);
                float g = greyOfEV((float) (ev - 0.1 * k));
                setPixel(rgba, w, i % w, i / w, g, g, g);
            }
            history = ExposureModel.exposure(ExposureModel.normalize(uniformHistogram(rgba, w, h)), history, 1 / 60f, false, s);
            float target = history[TARGET_EV];
            assertEquals(1f, history[MEASURED], "step " + k + ": pixels below the range are still metered");
            if (k > 0) {
                assertTrue(target <= previous + 1e-5f, "step " + k + ": rose from " + previous + " to " + target);
                assertTrue(previous - target <= 0.3f, "step " + k + ": jumped from " + previous + " to " + target);
            }
            previous = target;
        }
        assertEquals(centre(1) - S.log2MiddleGrey(), previous, 1e-5f, "everything below range: the edge bin");
    }

    // ---- GPU accumulation scheme ------------------------------------------------------------------

    @Test
    void an8kFrameAtWeightOneCannotOverflowTheAccumulator() {
        int w = 7680, h = 4320;
        long pixels = (long) w * h;
        long units = pixels * ExposureModel.WEIGHT_ONE;
        assertEquals(8_493_465_600L, units);
        assertTrue(units > 0xFFFF_FFFFL, "one 32-bit word per bin would wrap");
        float g = greyOfEV(centre(128));
        FixedPointHistogram acc = ExposureModel.accumulate((x, y, rgb) -> Arrays.fill(rgb, g), w, h, Metering.UNIFORM,
                null, 0, 0, S, DEFAULT_ROWS_PER_INVOCATION);
        assertEquals(units, acc.count(128));
        assertEquals(1, acc.hi(128), "the carry word took the overflow");
        assertEquals(units - (1L << 32), acc.lo(128));
        assertEquals(1, acc.carries());
        int[] groups = histogramGroupCounts(w, h, DEFAULT_ROWS_PER_INVOCATION);
        assertEquals((long) groups[0] * groups[1], acc.globalAdds(), "one global add per group for a flat image");
        float[] bins = acc.resolve();
        assertEquals(33_177_600f, bins[128], "W x H exactly");
        assertEquals(pixels, sum(bins));
        assertEquals(0, acc.count(128), "resolve leaves the accumulator zeroed");
    }

    @Test
    void sharedGroupBinsCannotOverflowAtTheLargestTile() {
        long perGroup = (long) HISTOGRAM_GROUP_WIDTH * HISTOGRAM_GROUP_HEIGHT * MAX_ROWS_PER_INVOCATION * ExposureModel.WEIGHT_ONE;
        assertTrue(perGroup < FixedPointHistogram.WORD, perGroup + " must fit a 32-bit shared word");
        long[] group = new long[BINS];
        group[5] = perGroup;
        FixedPointHistogram acc = new FixedPointHistogram();
        acc.mergeGroup(group);
        assertEquals(perGroup, acc.count(5));
        group[5] = FixedPointHistogram.WORD;
        assertThrows(IllegalStateException.class, () -> acc.mergeGroup(group), "the model flags a shared overflow");
        assertThrows(IllegalArgumentException.class, () -> histogramGroupCounts(16, 16, MAX_ROWS_PER_INVOCATION + 1));
    }

    @Test
    void theCarryIsExactUnderAnyAddOrder() {
        SplittableRandom r = new SplittableRandom(11);
        FixedPointHistogram acc = new FixedPointHistogram();
        long expected = 0;
        for (int i = 0; i < 200_000; i++) {
            long amount = r.nextLong(FixedPointHistogram.WORD);
            acc.add(3, amount);
            expected += amount;
        }
        assertEquals(expected, acc.count(3));
        assertEquals(expected >>> 32, acc.hi(3));
    }

    @Test
    void theResolveConversionRoundsLikeJava() {
        long[] edge = {0, 1, (1L << 24) - 1, 1L << 24, (1L << 24) + 1, (1L << 24) + 3, 0xFFFF_FFFFL, 1L << 32,
                (1L << 32) + 1, (1L << 32) + 0x80, (1L << 32) + 0x81, (1L << 32) + 0x180, 0x1_0000_0100L,
                0x1_FFFF_FF80L, 0x7FFF_FFFF_FFFF_FFFFL, 0x0000_8000_0000_0080L, 0x0000_8000_0000_0081L,
                8_493_465_600L, 0xFFFF_FFFF_0000_0000L >>> 1};
        for (long v : edge) {
            assertEquals((float) v, FixedPointHistogram.fixedPointToFloat((int) (v >>> 32), (int) v), Long.toHexString(v));
        }
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 500_000; i++) {
            long v = r.nextLong() >>> r.nextInt(64);
            v &= 0x7FFF_FFFF_FFFF_FFFFL;
            assertEquals((float) v, FixedPointHistogram.fixedPointToFloat((int) (v >>> 32), (int) v), Long.toHexString(v));
        }
    }

    // ---- tone mapping -----------------------------------------------------------------------------

    @Test
    void acesFitEndpointsAndShape() {
        assertEquals(0f, ExposureModel.aces(0f));
        assertEquals(1f, ExposureModel.aces(1e4f));
        assertEquals(0.18f * (2.51f * 0.18f + 0.03f) / (0.18f * (2.43f * 0.18f + 0.59f) + 0.14f), ExposureModel.aces(0.18f), 1e-7f);
        assertEquals(0.8, ExposureModel.aces(1f), 0.01, "the fit is pre-exposed: 1 maps to about 0.8");
        float previous = -1f;
        for (float x = 0f; x < 20f; x += 0.01f) {
            float y = ExposureModel.aces(x);
            assertTrue(y >= previous, "monotonic at " + x);
            previous = y;
        }
    }

    @Test
    void tonemapAppliesTheMultiplierAndSurvivesBadInput() {
        assertEquals(ExposureModel.aces(0.18f), ExposureModel.tonemap(0.72f, 0.25f));
        assertEquals(ExposureModel.aces(0.6f), ExposureModel.tonemap(1f, 1f, 0.6f));
        assertEquals(0f, ExposureModel.tonemap(Float.NaN, 1f));
        assertEquals(0f, ExposureModel.tonemap(Float.NEGATIVE_INFINITY, 1f));
        assertEquals(0f, ExposureModel.tonemap(-5f, 1f));
        assertEquals(1f, ExposureModel.tonemap(Float.POSITIVE_INFINITY, 1f));
        assertEquals(1f, ExposureModel.tonemap(Float.MAX_VALUE, 4f), "overflow to +Inf is white");
    }

    @Test
    void srgbEncodingIsTheStandardOetf() {
        assertEquals(0f, ExposureModel.srgbEncode(0f));
        assertEquals(1f, ExposureModel.srgbEncode(1f), 1e-6f);
        assertEquals(12.92f * 0.002f, ExposureModel.srgbEncode(0.002f));
        assertEquals(0.7353569, ExposureModel.srgbEncode(0.5f), 1e-5);
        // The two pieces meet at the threshold.
        assertEquals(ExposureModel.srgbEncode(0.0031308f), ExposureModel.srgbEncode(Math.nextUp(0.0031308f)), 1e-6f);
    }
}

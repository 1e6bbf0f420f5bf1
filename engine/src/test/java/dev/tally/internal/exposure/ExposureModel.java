package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.ExposureMode;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

/**
 * A plain-Java reference of the auto-exposure shaders, formula for formula (test sources only: the
 * library does not ship it): the same bin mapping, the
 * same 1/256 fixed-point weights and 64-bit accumulation, the same single-precision operations in the
 * same order (the shaders mark those {@code precise}, so no fma creeps in on either side).
 *
 * <p>What can still differ on a GPU: {@code log2}, {@code exp}, {@code exp2}, {@code pow} and float
 * division are not correctly rounded there (Vulkan allows a few ULP), so a pixel within about one ULP
 * of a bin edge, or a centre weight within one ULP of a 1/256 rounding step, may land one bin or one
 * step away, and metering results agree to a few ULP rather than bit for bit.
 *
 * <p>Data layouts: HDR images are {@code float[4 * w * h]} RGBA, row-major from the top-left pixel;
 * masks are {@code float[maskW * maskH]} red values. Histogram, normalized histogram and exposure
 * record layouts are described in {@link ExposureShaderLayout}.
 */
public final class ExposureModel {
    public static final int BINS = 256;
    /** Bins 1..255 split [minEV, maxEV]; bin 0 takes everything that is not metered. */
    public static final int RANGE_BINS = 255;
    /** Fixed-point units per unit of metering weight (weights are quantized to 1/256). */
    public static final int WEIGHT_ONE = 256;
    public static final float CENTRE_WEIGHT_FLOOR = 0.05f;
    public static final float LUMA_R = 0.2126f;
    public static final float LUMA_G = 0.7152f;
    public static final float LUMA_B = 0.0722f;
    /** Tone mapping clamps its input here (the half-float maximum) before the curve. */
    public static final float TONEMAP_INPUT_MAX = 65504f;

    private static final double LN2 = Math.log(2.0);

    private ExposureModel() {
    }

    /** A source of linear HDR colour, for images too large to hold as an array. */
    @FunctionalInterface
    public interface HdrImage {
        /** Writes pixel (x, y)'s linear R, G, B into {@code rgb[0..2]}. */
        void read(int x, int y, float[] rgb);

        static HdrImage of(float[] rgba, int w, int h) {
            if (rgba.length != 4L * w * h) {
                throw new IllegalArgumentException("an RGBA image of " + w + " x " + h + " has " + (4L * w * h)
                        + " floats, got " + rgba.length);
            }
            return (x, y, rgb) -> {
                int i = 4 * (y * w + x);
                rgb[0] = rgba[i];
                rgb[1] = rgba[i + 1];
                rgb[2] = rgba[i + 2];
            };
        }
    }

    // ---- Per-pixel pieces ------------------------------------------------------------------------

    /** log2 rounded to float (the GPU's log2 may be a few ULP off this). */
    public static float log2(float x) {
        return (float) (Math.log(x) / LN2);
    }

    /** Rec. 709 relative luminance, {@code (0.2126 r + 0.7152 g) + 0.0722 b} in float. */
    public static float luminance(float r, float g, float b) {
        float red = LUMA_R * r;
        float green = LUMA_G * g;
        float blue = LUMA_B * b;
        return (red + green) + blue;
    }

    /**
     * The histogram bin of one colour: 0 for any NaN/Inf channel or luminance <= 0; 1 below minEV;
     * otherwise {@code 1 + min(floor((log2(lum) - minEV) * binsPerEV), 254)}, so maxEV and above
     * (up to the largest finite luminance, FLT_MAX: finite channels cannot overflow it) land in 255.
     */
    public static int bin(float r, float g, float b, ExposureSettings s) {
        return bin(r, g, b, s.minEV(), s.binsPerEV());
    }

    static int bin(float r, float g, float b, float minEV, float binsPerEV) {
        if (!Float.isFinite(r) || !Float.isFinite(g) || !Float.isFinite(b)) {
            return 0;
        }
        float lum = luminance(r, g, b);
        if (!(lum > 0f)) {
            return 0;
        }
        float offsetEV = log2(lum) - minEV;
        float scaled = offsetEV * binsPerEV;
        if (!(scaled >= 0f)) {
            return 1;
        }
        return 1 + (int) Math.min((float) Math.floor(scaled), (float) (RANGE_BINS - 1));
    }

    /** The EV at the centre of bin k (1..255): {@code minEV + (k - 0.5) * evPerBin}. */
    public static float binCentreEV(int k, ExposureSettings s) {
        return binCentreEV(k, s.minEV(), s.evPerBin());
    }

    static float binCentreEV(int k, float minEV, float evPerBin) {
        float offset = ((float) k - 0.5f) * evPerBin;
        return minEV + offset;
    }

    /** The EV at the lower edge of bin k (1..255): {@code minEV + (k - 1) * evPerBin}. */
    public static float binLowerEV(int k, ExposureSettings s) {
        return binLowerEV(k, s.minEV(), s.evPerBin());
    }

    static float binLowerEV(int k, float minEV, float evPerBin) {
        float offset = (float) (k - 1) * evPerBin;
        return minEV + offset;
    }

    /** A weight in [0, 1] to 1/256 steps: {@code (int) (clamp(w, 0, 1) * 256 + 0.5)}; NaN and Inf give 0. */
    public static int quantizeWeight(float w) {
        float clamped = Float.isFinite(w) ? Math.max(0f, Math.min(w, 1f)) : 0f;
        float scaled = clamped * 256f + 0.5f;
        return (int) scaled;
    }

    /** Centre-weighted metering, see {@link Metering#CENTRE}. */
    public static float centreWeight(int x, int y, int w, int h) {
        float u = (float) (2 * x + 1 - w) / (float) w;
        float v = (float) (2 * y + 1 - h) / (float) h;
        float uu = u * u;
        float vv = v * v;
        float r2 = uu + vv;
        float falloff = 1f - r2;
        return Math.max(CENTRE_WEIGHT_FLOOR, falloff);
    }

    /** The mask texel, per axis, that meters pixel p of an image of {@code size}: {@code floor((2p + 1) * maskSize / (2 size))}. */
    public static int maskTexel(int p, int size, int maskSize) {
        return (int) (((2L * p + 1) * maskSize) / (2L * size));
    }

    /** The fixed-point weight (1/256 units) of pixel (x, y). */
    public static int weight(int x, int y, int w, int h, Metering m, float[] mask, int maskW, int maskH) {
        switch (m) {
            case UNIFORM:
                return WEIGHT_ONE;
            case CENTRE:
                return quantizeWeight(centreWeight(x, y, w, h));
            case MASK:
                return quantizeWeight(mask[maskTexel(y, h, maskH) * maskW + maskTexel(x, w, maskW)]);
            default:
                throw new IllegalArgumentException(String.valueOf(m));
        }
    }

    // ---- Histogram -------------------------------------------------------------------------------

    /**
     * histogram.comp, ACCUMULATE then RESOLVE: 256 bin weights in pixel units (uniform metering adds 1
     * per pixel). {@code mask} is used by {@link Metering#MASK} only and then has one red value per pixel.
     */
    public static float[] histogram(float[] rgba, int w, int h, Metering m, float[] mask, ExposureSettings s) {
        requireMask(m, mask, w, h);
        return accumulate(HdrImage.of(rgba, w, h), w, h, m, mask, w, h, s,
                ExposureShaderLayout.DEFAULT_ROWS_PER_INVOCATION).resolve();
    }

    /** As above with the metering mode of {@code s}. */
    public static float[] histogram(float[] rgba, int w, int h, float[] mask, ExposureSettings s) {
        return histogram(rgba, w, h, s.metering(), mask, s);
    }

    /**
     * histogram.comp's ACCUMULATE, workgroup by workgroup: each 16 x (16 * rows) tile sums its weights
     * into 32-bit group bins, which are merged into the 64-bit accumulator. The returned accumulator can
     * be inspected, then {@link FixedPointHistogram#resolve() resolved} to the float bins.
     */
    public static FixedPointHistogram accumulate(HdrImage image, int w, int h, Metering m,
                                                 float[] mask, int maskW, int maskH, ExposureSettings s, int rows) {
        if (w <= 0 || h <= 0) {
            throw new IllegalArgumentException("image size must be positive, got " + w + " x " + h);
        }
        if (m == Metering.MASK && (mask == null || maskW <= 0 || maskH <= 0 || mask.length != (long) maskW * maskH)) {
            throw new IllegalArgumentException("MASK metering needs a mask of maskW x maskH red values");
        }
        int[] groups = ExposureShaderLayout.histogramGroupCounts(w, h, rows);
        int groupW = ExposureShaderLayout.HISTOGRAM_GROUP_WIDTH;
        int groupH = ExposureShaderLayout.HISTOGRAM_GROUP_HEIGHT;
        float minEV = s.minEV();
        float binsPerEV = s.binsPerEV();
        FixedPointHistogram accumulator = new FixedPointHistogram();
        long[] group = new long[BINS];
        float[] rgb = new float[3];
        for (int gy = 0; gy < groups[1]; gy++) {
            for (int gx = 0; gx < groups[0]; gx++) {
                java.util.Arrays.fill(group, 0L);
                int tileTop = gy * groupH * rows;
                for (int row = 0; row < rows; row++) {
                    for (int ly = 0; ly < groupH; ly++) {
                        int y = tileTop + row * groupH + ly;
                        if (y >= h) {
                            continue;
                        }
                        for (int lx = 0; lx < groupW; lx++) {
                            int x = gx * groupW + lx;
                            if (x >= w) {
                                continue;
                            }
                            image.read(x, y, rgb);
                            int weight = weight(x, y, w, h, m, mask, maskW, maskH);
                            if (weight != 0) {
                                group[bin(rgb[0], rgb[1], rgb[2], minEV, binsPerEV)] += weight;
                            }
                        }
                    }
                }
                accumulator.mergeGroup(group);
            }
        }
        return accumulator;
    }

    private static void requireMask(Metering m, float[] mask, int w, int h) {
        if (m == Metering.MASK && (mask == null || mask.length != (long) w * h)) {
            throw new IllegalArgumentException("MASK metering needs one mask value per pixel (" + ((long) w * h) + "), got "
                    + (mask == null ? "null" : String.valueOf(mask.length)));
        }
    }

    // ---- Normalize -------------------------------------------------------------------------------

    /** The total the engine's reduction would produce: the sum of the bins, correctly rounded to float. */
    public static float total(float[] bins) {
        double sum = 0;
        for (float b : bins) {
            sum += b;
        }
        return (float) sum;
    }

    /** normalize.comp (count 256) with {@link #total(float[])} as the total. */
    public static float[] normalize(float[] bins) {
        return normalize(bins, total(bins));
    }

    /**
     * normalize.comp with count 256: 257 floats, {@code bins[i] / total} and a last float 1 (valid),
     * or all zeros and 0 when the total is not usable (zero, NaN or infinite).
     */
    public static float[] normalize(float[] bins, float total) {
        if (bins.length != BINS) {
            throw new IllegalArgumentException("a histogram has " + BINS + " bins, got " + bins.length);
        }
        float[] out = new float[ExposureShaderLayout.NORMALIZED_FLOATS];
        boolean valid = usableTotal(total);
        for (int i = 0; i < BINS; i++) {
            out[i] = valid ? bins[i] / total : 0f;
        }
        out[ExposureShaderLayout.NORMALIZED_VALID] = valid ? 1f : 0f;
        return out;
    }

    /** normalize.comp's rule: a total divides when it is finite and not zero. */
    public static boolean usableTotal(float total) {
        return Float.isFinite(total) && total != 0f;
    }

    /** normalize.comp for any count: {@code count + 1} floats, the quotients then the usable flag. */
    public static float[] normalizeAny(float[] values, float total) {
        boolean usable = usableTotal(total);
        float[] out = new float[values.length + 1];
        for (int i = 0; i < values.length; i++) {
            out[i] = usable ? values[i] / total : 0f;
        }
        out[values.length] = usable ? 1f : 0f;
        return out;
    }

    // ---- Histogram filter ------------------------------------------------------------------------

    /**
     * exposure.comp's moving average of the normalized histogram: {@code prev + blend * (cur - prev)}
     * per bin when both are usable (this frame's alone when blend >= 1), this frame's alone without a
     * usable previous one (or on reset), the previous one carried when this frame's is not usable.
     */
    public static float[] filter(float[] normalized, float[] previous, float blend, boolean reset) {
        boolean current = normalized[ExposureShaderLayout.NORMALIZED_VALID] > 0.5f;
        boolean before = !reset && previous[ExposureShaderLayout.NORMALIZED_VALID] > 0.5f;
        float[] out = new float[ExposureShaderLayout.NORMALIZED_FLOATS];
        for (int k = 0; k < BINS; k++) {
            if (current && before) {
                if (blend >= 1f) {
                    out[k] = normalized[k];
                } else {
                    float d = normalized[k] - previous[k];
                    out[k] = previous[k] + blend * d;
                }
            } else {
                out[k] = current ? normalized[k] : before ? previous[k] : 0f;
            }
        }
        out[ExposureShaderLayout.NORMALIZED_VALID] = current || before ? 1f : 0f;
        return out;
    }

    // ---- Metering --------------------------------------------------------------------------------

    /**
     * exposure.comp's metering of one normalized histogram.
     *
     * @param measured false when the histogram is invalid or holds nothing in bins 1..255
     * @param meanEV   mean log2 luminance between the percentiles (sample units, partial bins fractional)
     * @param lowEV    log2 luminance where the cumulative reaches the low percentile
     * @param highEV   log2 luminance where the cumulative reaches the high percentile
     */
    public record Metered(boolean measured, float meanEV, float lowEV, float highEV) {
        static final Metered NONE = new Metered(false, 0f, 0f, 0f);
    }

    /** See exposure.comp's header for the definition; this is the same loop. */
    public static Metered meter(float[] normalized, ExposureSettings s) {
        return meter(normalized, normalized[ExposureShaderLayout.NORMALIZED_VALID] > 0.5f, s);
    }

    /** Metering of bins 1..255 of {@code normalized} when {@code usable}. */
    public static Metered meter(float[] normalized, boolean usable, ExposureSettings s) {
        if (normalized.length != ExposureShaderLayout.NORMALIZED_FLOATS) {
            throw new IllegalArgumentException("a normalized histogram has " + ExposureShaderLayout.NORMALIZED_FLOATS
                    + " floats, got " + normalized.length);
        }
        if (!usable) {
            return Metered.NONE;
        }
        float mass = 0f;
        for (int k = 1; k < BINS; k++) {
            mass = mass + normalized[k];
        }
        if (!(mass > 0f) || !Float.isFinite(mass)) {
            return Metered.NONE;
        }
        float minEV = s.minEV();
        float evPerBin = s.evPerBin();
        float low = s.lowPercentile() * mass;
        float high = s.highPercentile() * mass;
        float start = 0f;
        float weightSum = 0f;
        float evSum = 0f;
        float lowEV = 0f;
        float highEV = 0f;
        boolean lowFound = false;
        boolean highFound = false;
        for (int k = 1; k < BINS; k++) {
            float p = normalized[k];
            float end = start + p;
            if (p > 0f) {
                float overlap = Math.min(end, high) - Math.max(start, low);
                if (overlap > 0f) {
                    float weighted = overlap * binCentreEV(k, minEV, evPerBin);
                    weightSum = weightSum + overlap;
                    evSum = evSum + weighted;
                }
                if (!lowFound && start <= low && low < end) {
                    float fraction = (low - start) / p;
                    float within = fraction * evPerBin;
                    lowEV = binLowerEV(k, minEV, evPerBin) + within;
                    lowFound = true;
                }
                if (!highFound && start < high && high <= end) {
                    float fraction = (high - start) / p;
                    float within = fraction * evPerBin;
                    highEV = binLowerEV(k, minEV, evPerBin) + within;
                    highFound = true;
                }
            }
            start = end;
        }
        if (!(weightSum > 0f)) {
            return Metered.NONE;
        }
        float mean = evSum / weightSum;
        return new Metered(true, mean, lowFound ? lowEV : mean, highFound ? highEV : mean);
    }

    /** The metered mean log2 luminance, or NaN when the histogram cannot be metered. */
    public static float meanLogLuminance(float[] normalized, ExposureSettings s) {
        Metered m = meter(normalized, s);
        return m.measured() ? m.meanEV() : Float.NaN;
    }

    /** {@code exposureEV = meanLogLum - log2(middleGrey) - compensation}. */
    public static float targetEV(float meanLogLum, ExposureSettings s) {
        return (meanLogLum - s.log2MiddleGrey()) - s.compensation();
    }

    /** The exposure multiplier {@code exp2(-ev)}. */
    public static float multiplier(float ev) {
        return (float) Math.pow(2.0, -ev);
    }

    // ---- Curve ----------------------------------------------------------------------------------

    /** exposure.comp's {@code curveAt}: the baked table at sceneEV, linear between samples. */
    public static float curveAt(float[] table, float sceneEV) {
        int count = (int) table[2];
        if (count == 0) {
            return 0f;
        }
        if (count == 1) {
            return table[ExposureCurve.HEADER_FLOATS];
        }
        float offset = sceneEV - table[0];
        float t = offset * table[1];
        float clamped = Math.min(Math.max(t, 0f), (float) (count - 1));
        int i = Math.min((int) Math.floor(clamped), count - 2);
        float f = clamped - (float) i;
        float a = table[ExposureCurve.HEADER_FLOATS + i];
        float b = table[ExposureCurve.HEADER_FLOATS + i + 1];
        float rise = b - a;
        return a + f * rise;
    }

    // ---- Adaptation ------------------------------------------------------------------------------

    /**
     * One frame of adaptation from {@code previousEV} toward {@code targetEV}; a NaN (or infinite)
     * previousEV means there is no history and snaps to the target.
     */
    public static float adapt(float previousEV, float targetEV, float dt, ExposureSettings s) {
        return adapt(previousEV, Float.isFinite(previousEV), targetEV, dt, false, s);
    }

    /**
     * One frame of the adaptation law (no dead band): snaps to the target on reset or without valid
     * history, else moves along the exact solution of
     * {@code d(err)/dt = -speed * clamp(err / D, -1, 1) * D} (err = ev - target, D = transitionEV):
     * linear at {@code speed} stops/s beyond D, exponential with rate {@code speed / D} within it.
     * A dt that is not finite and positive counts as 0 (no change).
     */
    public static float adapt(float previousEV, boolean historyValid, float targetEV, float dt, boolean reset,
                              ExposureSettings s) {
        if (reset || !historyValid || !Float.isFinite(previousEV)) {
            return targetEV;
        }
        float step = dt > 0f && Float.isFinite(dt) ? dt : 0f;
        float speed = targetEV > previousEV ? s.brightenSpeed() : s.darkenSpeed();
        float d = s.transitionEV();
        float delta = targetEV - previousEV;
        float distance = Math.abs(delta);
        float travel = speed * step;
        float remaining;
        if (distance > d) {
            float linear = distance - d;
            if (travel <= linear) {
                remaining = distance - travel;
            } else {
                float excess = travel - linear;
                remaining = d * (float) Math.exp(-(excess / d));
            }
        } else {
            remaining = distance * (float) Math.exp(-(travel / d));
        }
        return delta >= 0f ? targetEV - remaining : targetEV + remaining;
    }

    /**
     * The time in seconds the adaptation law needs to bring an error of {@code fromStops} within
     * {@code withinStops} (both > 0) at {@code speed} stops/s with transition distance {@code d}:
     * {@code (e - d) / speed + (d / speed) ln(d / within)} from beyond d, {@code (d / speed) ln(e / within)}
     * from within it (0 if already there).
     */
    public static double convergenceSeconds(double fromStops, double withinStops, double speed, double d) {
        if (fromStops <= withinStops) {
            return 0;
        }
        if (fromStops > d) {
            double linear = (fromStops - d) / speed;
            return withinStops >= d ? (fromStops - withinStops) / speed : linear + d / speed * Math.log(d / withinStops);
        }
        return d / speed * Math.log(fromStops / withinStops);
    }

    // ---- Exposure pass ---------------------------------------------------------------------------

    /** One frame of exposure.comp: the record and the filtered histogram it keeps as history. */
    public record Step(float[] record, float[] filtered) {
    }

    /**
     * exposure.comp with no history (zeroed filter) and no curve: the record only. For tests of
     * single frames.
     */
    public static float[] exposure(float[] normalized, float[] history, float dt, boolean reset, ExposureSettings s) {
        return exposure(normalized, new float[ExposureShaderLayout.NORMALIZED_FLOATS], history, s.curve().bake(), dt, reset, s)
                .record();
    }

    /**
     * exposure.comp: this frame's record and filtered histogram from the normalized histogram, last
     * frame's filtered histogram and record (all zeros before the first frame), and the curve table.
     */
    public static Step exposure(float[] normalized, float[] filteredBefore, float[] history, float[] curveTable, float dt,
                                boolean reset, ExposureSettings s) {
        if (history.length != ExposureShaderLayout.EXPOSURE_FLOATS) {
            throw new IllegalArgumentException("an exposure record has " + ExposureShaderLayout.EXPOSURE_FLOATS
                    + " floats, got " + history.length);
        }
        boolean currentValid = normalized[ExposureShaderLayout.NORMALIZED_VALID] > 0.5f;
        float[] filtered = filter(normalized, filteredBefore, s.histogramBlend(dt), reset);
        Metered m = meter(filtered, currentValid, s);
        float step = dt > 0f && Float.isFinite(dt) ? dt : 0f;
        float previousEV = history[ExposureShaderLayout.EV];
        boolean historyValid = history[ExposureShaderLayout.VALID] > 0.5f && Float.isFinite(previousEV);
        float previousPhase = history[ExposureShaderLayout.PHASE];
        boolean wasAdapting = previousPhase == ExposureShaderLayout.PHASE_LINEAR || previousPhase == ExposureShaderLayout.PHASE_EXPONENTIAL;
        float[] r = new float[ExposureShaderLayout.EXPOSURE_FLOATS];
        if (m.measured()) {
            r[ExposureShaderLayout.MEAN_LOG_LUM] = m.meanEV();
            r[ExposureShaderLayout.LOW_EV] = m.lowEV();
            r[ExposureShaderLayout.HIGH_EV] = m.highEV();
            r[ExposureShaderLayout.SCENE_EV] = m.meanEV() - s.log2MiddleGrey();
            r[ExposureShaderLayout.MEASURED] = 1f;
        } else {
            for (int i : new int[]{ExposureShaderLayout.MEAN_LOG_LUM, ExposureShaderLayout.LOW_EV, ExposureShaderLayout.HIGH_EV,
                    ExposureShaderLayout.SCENE_EV}) {
                r[i] = history[i];
            }
        }
        float ev;
        if (s.mode() != ExposureMode.AUTO) {
            float target = s.fixedEV() - s.compensation();
            ev = target;
            r[ExposureShaderLayout.TARGET_EV] = target;
            r[ExposureShaderLayout.VALID] = 1f;
            r[ExposureShaderLayout.PHASE] = ExposureShaderLayout.PHASE_SNAP;
        } else if (m.measured()) {
            float sceneEV = r[ExposureShaderLayout.SCENE_EV];
            float curveEV = curveAt(curveTable, sceneEV);
            float compensated = sceneEV - s.compensation();
            float raw = compensated - curveEV;
            float clampHit = raw < s.clampMinEV() ? -1f : raw > s.clampMaxEV() ? 1f : 0f;
            float target = Math.min(Math.max(raw, s.clampMinEV()), s.clampMaxEV());
            int phase;
            if (reset || !historyValid) {
                ev = target;
                phase = ExposureShaderLayout.PHASE_SNAP;
            } else {
                float error = Math.abs(target - previousEV);
                float settle = Math.min(s.deadBandEV(), ExposureSettings.SETTLE_EV);
                boolean hold = wasAdapting ? error <= settle : error <= s.deadBandEV();
                if (hold) {
                    ev = previousEV;
                    phase = ExposureShaderLayout.PHASE_HOLDING;
                } else {
                    ev = adapt(previousEV, true, target, step, false, s);
                    phase = error > s.transitionEV() ? ExposureShaderLayout.PHASE_LINEAR : ExposureShaderLayout.PHASE_EXPONENTIAL;
                }
            }
            r[ExposureShaderLayout.TARGET_EV] = target;
            r[ExposureShaderLayout.CURVE_EV] = curveEV;
            r[ExposureShaderLayout.CLAMP_HIT] = clampHit;
            r[ExposureShaderLayout.VALID] = 1f;
            r[ExposureShaderLayout.PHASE] = phase;
        } else {
            ev = Float.isFinite(previousEV) ? previousEV : 0f;
            r[ExposureShaderLayout.TARGET_EV] = history[ExposureShaderLayout.TARGET_EV];
            r[ExposureShaderLayout.CURVE_EV] = history[ExposureShaderLayout.CURVE_EV];
            r[ExposureShaderLayout.CLAMP_HIT] = history[ExposureShaderLayout.CLAMP_HIT];
            r[ExposureShaderLayout.VALID] = reset || !historyValid ? 0f : 1f;
            r[ExposureShaderLayout.PHASE] = ExposureShaderLayout.PHASE_HOLDING;
        }
        r[ExposureShaderLayout.EV] = ev;
        r[ExposureShaderLayout.MULTIPLIER] = multiplier(ev);
        return new Step(r, filtered);
    }

    // ---- Tone mapping ----------------------------------------------------------------------------

    /** Narkowicz's ACES fit {@code x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14)}, clamped to [0, 1]. */
    public static float aces(float x) {
        float numerator = x * (2.51f * x + 0.03f);
        float denominator = x * (2.43f * x + 0.59f) + 0.14f;
        return Math.max(0f, Math.min(numerator / denominator, 1f));
    }

    /** tonemap.frag for one channel with ACES_INPUT_SCALE 1: display-linear, in [0, 1]. */
    public static float tonemap(float hdr, float multiplier) {
        return tonemap(hdr, multiplier, 1f);
    }

    /**
     * tonemap.frag for one channel: {@code aces(clamp(hdr * multiplier * inputScale, 0, 65504))}, NaN
     * and -Inf giving 0, +Inf giving 1. Display-linear, in [0, 1]; see {@link #srgbEncode(float)}.
     */
    public static float tonemap(float hdr, float multiplier, float inputScale) {
        float exposed = hdr * multiplier;
        float scaled = exposed * inputScale;
        float x = Float.isFinite(scaled) || scaled > 0f ? Math.max(0f, Math.min(scaled, TONEMAP_INPUT_MAX)) : 0f;
        return aces(x);
    }

    /** The sRGB OETF (IEC 61966-2-1), what an _SRGB target or tonemap.frag's ENCODE_SRGB applies. */
    public static float srgbEncode(float linear) {
        return linear <= 0.0031308f ? 12.92f * linear : 1.055f * (float) Math.pow(linear, 1.0f / 2.4f) - 0.055f;
    }
}

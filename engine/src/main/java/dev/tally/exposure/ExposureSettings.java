package dev.tally.exposure;

/**
 * Exposure settings; immutable. {@link #DEFAULTS} holds the defaults, {@code with...} methods derive
 * variants, and the constructor rejects anything out of range with an {@link IllegalArgumentException}
 * that names the setting and its allowed range. EV here is the exposure record's unit: the image is
 * scaled by {@code exp2(-ev)}, so a scene luminance of {@code 2^ev} maps to 1.0 before tone mapping.
 *
 * @param minEV          log2 luminance at the bottom of histogram bin 1 (default -10); darker pixels
 *                       count in bin 1, as if they were at minEV
 * @param maxEV          log2 luminance at the top of bin 255 (default +20); {@code minEV < maxEV}
 * @param lowPercentile  samples below this cumulative fraction are not metered (default 0.10)
 * @param highPercentile samples above this cumulative fraction are not metered (default 0.90);
 *                       {@code 0 <= lowPercentile < highPercentile <= 1}
 * @param middleGrey     the scene luminance the metered mean maps to (default 0.18), {@code > 0}
 * @param compensation   exposure compensation in stops; +1 makes the image one stop brighter (default 0),
 *                       in every mode
 * @param brightenSpeed  adaptation speed in stops per second when the scene gets brighter, i.e. the
 *                       target EV rises above the current one (default 3), {@code > 0}
 * @param darkenSpeed    adaptation speed in stops per second when the scene gets darker (default 1), {@code > 0}
 * @param metering       how pixels are weighted (default {@link Metering#UNIFORM})
 * @param mode           auto (metered), manual or physical camera (default {@link ExposureMode#AUTO})
 * @param manualEV       the EV of manual mode (default 0)
 * @param aperture       f-number N of physical mode (default 8), in [0.5, 256]
 * @param shutterSeconds shutter time t of physical mode in seconds (default 0.01), in [1e-6, 3600]
 * @param iso            sensitivity of physical mode (default 100), in [1, 1e6]
 * @param clampMinEV     auto mode: the target EV never goes below this (default -160: no clamp)
 * @param clampMaxEV     auto mode: the target EV never goes above this (default 160: no clamp);
 *                       {@code clampMinEV <= clampMaxEV}
 * @param curve          auto mode: compensation over scene EV (default {@link ExposureCurve#NONE})
 * @param transitionEV   adaptation is linear farther than this from the target and exponential within
 *                       it (default 1.5), {@code > 0}
 * @param deadBandEV     auto mode: adaptation starts only when the target leaves this band around the
 *                       applied EV, and then runs until within {@code min(deadBandEV, SETTLE_EV)} of
 *                       it (default 0.1; 0 turns the band off), {@code >= 0}
 * @param histogramFilterSeconds auto mode: time constant of the exponential moving average of the
 *                       normalized histogram (default 0.5; 0 turns the filter off), {@code >= 0}
 */
public record ExposureSettings(float minEV, float maxEV, float lowPercentile, float highPercentile,
                               float middleGrey, float compensation, float brightenSpeed, float darkenSpeed,
                               Metering metering, ExposureMode mode, float manualEV, float aperture, float shutterSeconds,
                               float iso, float clampMinEV, float clampMaxEV, ExposureCurve curve, float transitionEV,
                               float deadBandEV, float histogramFilterSeconds) {

    /** Lowest minEV and highest maxEV accepted: the log2 range of positive finite floats, rounded out. */
    public static final float EV_LIMIT_LOW = -160f;
    /** Highest maxEV (and clamp, manual EV) accepted; see {@link #EV_LIMIT_LOW}. */
    public static final float EV_LIMIT_HIGH = 160f;
    /** Once adapting, adaptation stops within this many EV of the target (under 1 % in brightness). */
    public static final float SETTLE_EV = 0.01f;
    /**
     * log2(1.2): a scene luminance of {@code 1.2 * 2^EV100} saturates a camera at that EV100 (ISO 12232
     * saturation-based speed with the usual 78 / (ISO q), q = 0.65), so physical mode uses
     * {@code ev = EV100 + log2(1.2)}.
     */
    public static final float LOG2_SATURATION = 0.26303441f;

    /**
     * The exposure.* keys of a configuration. Ranges per key are checked by the configuration; the
     * rules between keys ({@code minEV < maxEV}, low {@code <} high percentile, {@code clampMinEV <= clampMaxEV}) and the curve's
     * syntax are checked here and name the keys.
     *
     * @param c a configuration
     * @return its exposure settings
     * @throws dev.tally.config.ConfigException naming where the keys were set and the rule they break
     */
    public static ExposureSettings fromConfig(dev.tally.config.Config c) {
        Metering m = switch (c.string("exposure.metering")) {
            case "centre" -> Metering.CENTRE;
            case "mask" -> Metering.MASK;
            default -> Metering.UNIFORM;
        };
        ExposureMode mode = switch (c.string("exposure.mode")) {
            case "manual" -> ExposureMode.MANUAL;
            case "physical" -> ExposureMode.PHYSICAL;
            default -> ExposureMode.AUTO;
        };
        ExposureCurve curve;
        try {
            curve = ExposureCurve.parse(c.string("exposure.curve"));
        } catch (IllegalArgumentException e) {
            String text = c.string("exposure.curve").strip();
            boolean quoted = text.startsWith("\"") || text.startsWith("'");
            throw new dev.tally.config.ConfigException(c.origin("exposure.curve") + ": key 'exposure.curve': " + e.getMessage()
                    + (quoted ? "; write the points without quotes, e.g. exposure.curve = -6:-2, 0:0" : ""));
        }
        requireOrdered(c, "exposure.minEV", "exposure.maxEV", true);
        requireOrdered(c, "exposure.lowPercentile", "exposure.highPercentile", true);
        requireOrdered(c, "exposure.clampMinEV", "exposure.clampMaxEV", false);
        try {
            return new ExposureSettings((float) c.real("exposure.minEV"), (float) c.real("exposure.maxEV"),
                    (float) c.real("exposure.lowPercentile"), (float) c.real("exposure.highPercentile"), (float) c.real("exposure.middleGrey"),
                    (float) c.real("exposure.compensation"), (float) c.real("exposure.brightenSpeed"), (float) c.real("exposure.darkenSpeed"), m,
                    mode, (float) c.real("exposure.manualEV"), (float) c.real("exposure.aperture"), (float) c.real("exposure.shutterSeconds"),
                    (float) c.real("exposure.iso"), (float) c.real("exposure.clampMinEV"), (float) c.real("exposure.clampMaxEV"), curve,
                    (float) c.real("exposure.transitionEV"), (float) c.real("exposure.deadBandEV"),
                    (float) c.real("exposure.histogramFilterSeconds"));
        } catch (IllegalArgumentException e) {
            throw new dev.tally.config.ConfigException("exposure.*: " + e.getMessage());
        }
    }

    /** {@code low < high} (or {@code <=}), else an error naming where each of the two keys was set. */
    private static void requireOrdered(dev.tally.config.Config c, String low, String high, boolean strict) {
        double a = c.real(low);
        double b = c.real(high);
        if (strict ? !(a < b) : !(a <= b)) {
            throw new dev.tally.config.ConfigException(c.origin(low) + " and " + c.origin(high) + ": keys '" + low + "' (" + c.string(low)
                    + ") and '" + high + "' (" + c.string(high) + "): expected " + low + (strict ? " < " : " <= ") + high);
        }
    }

    /** The defaults listed with the components: auto mode, uniform metering, no curve. */
    public static final ExposureSettings DEFAULTS =
            new ExposureSettings(-10f, 20f, 0.10f, 0.90f, 0.18f, 0f, 3f, 1f, Metering.UNIFORM);

    /**
     * The metering and adaptation settings, with every later control at its default.
     *
     * @param minEV          log2 luminance at the bottom of histogram bin 1
     * @param maxEV          log2 luminance at the top of bin 255
     * @param lowPercentile  samples below this cumulative fraction are not metered
     * @param highPercentile samples above this cumulative fraction are not metered
     * @param middleGrey     the scene luminance the metered mean maps to
     * @param compensation   exposure compensation in stops
     * @param brightenSpeed  adaptation speed in stops per second when the scene gets brighter
     * @param darkenSpeed    adaptation speed in stops per second when the scene gets darker
     * @param metering       how pixels are weighted
     * @throws IllegalArgumentException naming the setting and its allowed range
     */
    public ExposureSettings(float minEV, float maxEV, float lowPercentile, float highPercentile, float middleGrey,
                            float compensation, float brightenSpeed, float darkenSpeed, Metering metering) {
        this(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed, metering,
                ExposureMode.AUTO, 0f, 8f, 0.01f, 100f, EV_LIMIT_LOW, EV_LIMIT_HIGH, ExposureCurve.NONE, 1.5f, 0.1f, 0.5f);
    }

    /**
     * Checks every setting against the ranges the components give.
     *
     * @param minEV          log2 luminance at the bottom of histogram bin 1
     * @param maxEV          log2 luminance at the top of bin 255
     * @param lowPercentile  the metering window's start, a cumulative fraction
     * @param highPercentile the metering window's end
     * @param middleGrey     the scene luminance the metered mean maps to
     * @param compensation   exposure compensation in stops
     * @param brightenSpeed  stops per second toward a brighter scene
     * @param darkenSpeed    stops per second toward a darker scene
     * @param metering       how pixels are weighted
     * @param mode           where the exposure comes from
     * @param manualEV       the EV of manual mode
     * @param aperture       f-number of physical mode
     * @param shutterSeconds shutter time of physical mode
     * @param iso            sensitivity of physical mode
     * @param clampMinEV     auto mode's lowest target EV
     * @param clampMaxEV     auto mode's highest target EV
     * @param curve          auto mode's compensation over scene EV
     * @param transitionEV   where adaptation turns from linear to exponential
     * @param deadBandEV     the band around the applied EV in which the target does not move it
     * @param histogramFilterSeconds the histogram filter's time constant
     * @throws IllegalArgumentException naming the setting and its allowed range
     */
    public ExposureSettings {
        requireFinite("minEV", minEV);
        requireFinite("maxEV", maxEV);
        if (minEV < EV_LIMIT_LOW || maxEV > EV_LIMIT_HIGH) {
            throw new IllegalArgumentException("minEV and maxEV must lie within [" + EV_LIMIT_LOW + ", " + EV_LIMIT_HIGH
                    + "], got minEV " + minEV + ", maxEV " + maxEV);
        }
        if (!(minEV < maxEV)) {
            throw new IllegalArgumentException("minEV must be less than maxEV, got minEV " + minEV + ", maxEV " + maxEV);
        }
        if (!Float.isFinite(255f / (maxEV - minEV)) || !((maxEV - minEV) / 255f > 0f)) {
            // The shaders take bins per EV and EV per bin in single precision: an infinite or zero one bins nothing right.
            throw new IllegalArgumentException("minEV " + minEV + " to maxEV " + maxEV + " is too narrow a range for 255 histogram bins in single"
                    + " precision: widen it (1 EV or more is usual)");
        }
        requireFinite("lowPercentile", lowPercentile);
        requireFinite("highPercentile", highPercentile);
        if (lowPercentile < 0f || highPercentile > 1f || !(lowPercentile < highPercentile)) {
            throw new IllegalArgumentException("percentiles must satisfy 0 <= lowPercentile < highPercentile <= 1, got lowPercentile "
                    + lowPercentile + ", highPercentile " + highPercentile);
        }
        requireFinite("middleGrey", middleGrey);
        if (!(middleGrey > 0f)) {
            throw new IllegalArgumentException("middleGrey must be greater than 0, got " + middleGrey);
        }
        requireFinite("compensation", compensation);
        requireSpeed("brightenSpeed", brightenSpeed);
        requireSpeed("darkenSpeed", darkenSpeed);
        if (metering == null) {
            throw new IllegalArgumentException("metering must not be null (UNIFORM, CENTRE or MASK)");
        }
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null (AUTO, MANUAL or PHYSICAL)");
        }
        requireWithin("manualEV", manualEV, EV_LIMIT_LOW, EV_LIMIT_HIGH);
        requireWithin("aperture", aperture, 0.5f, 256f);
        requireWithin("shutterSeconds", shutterSeconds, 1e-6f, 3600f);
        requireWithin("iso", iso, 1f, 1e6f);
        requireWithin("clampMinEV", clampMinEV, EV_LIMIT_LOW, EV_LIMIT_HIGH);
        requireWithin("clampMaxEV", clampMaxEV, EV_LIMIT_LOW, EV_LIMIT_HIGH);
        if (!(clampMinEV <= clampMaxEV)) {
            throw new IllegalArgumentException("clampMinEV must not exceed clampMaxEV, got clampMinEV " + clampMinEV
                    + ", clampMaxEV " + clampMaxEV);
        }
        if (curve == null) {
            throw new IllegalArgumentException("curve must not be null (ExposureCurve.NONE for no curve)");
        }
        requireFinite("transitionEV", transitionEV);
        if (!(transitionEV > 0f) || transitionEV > 20f) {
            throw new IllegalArgumentException("transitionEV must be in (0, 20] EV, got " + transitionEV);
        }
        requireWithin("deadBandEV", deadBandEV, 0f, 10f);
        requireWithin("histogramFilterSeconds", histogramFilterSeconds, 0f, 60f);
    }

    private static void requireWithin(String name, float value, float low, float high) {
        requireFinite(name, value);
        if (value < low || value > high) {
            throw new IllegalArgumentException(name + " must be in [" + low + ", " + high + "], got " + value);
        }
    }

    private static void requireFinite(String name, float value) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number, got " + value);
        }
    }

    private static void requireSpeed(String name, float value) {
        requireFinite(name, value);
        if (!(value > 0f)) {
            throw new IllegalArgumentException(name + " must be greater than 0 stops per second, got " + value);
        }
    }

    /**
     * {@return these settings with the histogram's range replaced}
     *
     * @param minEV log2 luminance at the bottom of bin 1
     * @param maxEV log2 luminance at the top of bin 255
     */
    public ExposureSettings withRange(float minEV, float maxEV) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with the metering window replaced}
     *
     * @param low  the metering window's start, a cumulative fraction
     * @param high its end
     */
    public ExposureSettings withPercentiles(float low, float high) {
        return new ExposureSettings(minEV, maxEV, low, high, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with middle grey replaced}
     *
     * @param grey the scene luminance the metered mean maps to
     */
    public ExposureSettings withMiddleGrey(float grey) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, grey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with the compensation replaced}
     *
     * @param stops exposure compensation; +1 is one stop brighter
     */
    public ExposureSettings withCompensation(float stops) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, stops, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with the adaptation speeds replaced}
     *
     * @param brighten adaptation speed in stops per second toward a brighter scene
     * @param darken   adaptation speed in stops per second toward a darker scene
     */
    public ExposureSettings withSpeeds(float brighten, float darken) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brighten, darken,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with the metering replaced}
     *
     * @param m how pixels are weighted ({@link Metering#MASK} also needs {@link AutoExposure#mask})
     */
    public ExposureSettings withMetering(Metering m) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                m, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * Manual mode at {@code ev}.
     *
     * @param ev the exposure in EV (the image is scaled by {@code exp2(-ev)}, before compensation)
     * @return these settings in manual mode
     */
    public ExposureSettings withManual(float ev) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, ExposureMode.MANUAL, ev, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * Physical camera mode: the exposure of a camera with these settings.
     *
     * @param fNumber  aperture, f-number N
     * @param seconds  shutter time t in seconds
     * @param isoSpeed sensitivity (ISO)
     * @return these settings in physical mode
     */
    public ExposureSettings withPhysical(float fNumber, float seconds, float isoSpeed) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, ExposureMode.PHYSICAL, manualEV, fNumber, seconds, isoSpeed, clampMinEV, clampMaxEV, curve, transitionEV,
                deadBandEV, histogramFilterSeconds);
    }

    /** {@return these settings in auto mode (metered), every other value kept} */
    public ExposureSettings withAuto() {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, ExposureMode.AUTO, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV,
                deadBandEV, histogramFilterSeconds);
    }

    /**
     * {@return these settings with the clamps replaced}
     *
     * @param min the lowest target EV of auto mode
     * @param max the highest target EV of auto mode
     */
    public ExposureSettings withClamps(float min, float max) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, min, max, curve, transitionEV, deadBandEV, histogramFilterSeconds);
    }

    /**
     * {@return these settings with the curve replaced}
     *
     * @param c compensation over scene EV, or {@link ExposureCurve#NONE}
     */
    public ExposureSettings withCurve(ExposureCurve c) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, c, transitionEV, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * {@return these settings with the transition replaced}
     *
     * @param ev the distance from the target within which adaptation turns exponential
     */
    public ExposureSettings withTransition(float ev) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, ev, deadBandEV,
                histogramFilterSeconds);
    }

    /**
     * The dead band (EV) and the histogram filter's time constant (s); 0 and 0 turn both off.
     *
     * @param bandEV        the dead band around the applied EV
     * @param filterSeconds the histogram filter's time constant
     * @return these settings with both replaced
     */
    public ExposureSettings withStability(float bandEV, float filterSeconds) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed,
                metering, mode, manualEV, aperture, shutterSeconds, iso, clampMinEV, clampMaxEV, curve, transitionEV, bandEV, filterSeconds);
    }

    /** {@return {@code EV100 = log2(N^2 / t * 100 / ISO)} of the physical camera settings, in double, rounded once} */
    public float physicalEV100() {
        double n = aperture;
        return (float) (Math.log(n * n / shutterSeconds * 100.0 / iso) / Math.log(2.0));
    }

    /**
     * The EV of manual and physical modes before compensation: {@code manualEV}, or
     * {@code physicalEV100() + LOG2_SATURATION}; 0 in auto mode. exposure.comp's push constant.
     *
     * @return the fixed EV
     */
    public float fixedEV() {
        return switch (mode) {
            case MANUAL -> manualEV;
            case PHYSICAL -> physicalEV100() + LOG2_SATURATION;
            case AUTO -> 0f;
        };
    }

    /**
     * The weight of this frame's histogram in the moving average, {@code 1 - exp(-dt / filterSeconds)}
     * in double, rounded once (1 with the filter off; 0 for a dt that is not finite and positive):
     * exposure.comp's push constant. The same time constant at any frame rate.
     *
     * @param dt seconds since the previous frame
     * @return the blend weight in [0, 1]
     */
    public float histogramBlend(float dt) {
        if (histogramFilterSeconds == 0f) {
            return 1f;
        }
        if (!(dt > 0f) || !Float.isFinite(dt)) {
            return 0f;
        }
        return (float) -Math.expm1(-(double) dt / histogramFilterSeconds);
    }

    /** {@return bins per EV, {@code 255 / (maxEV - minEV)} in single precision: histogram.comp's push constant} */
    public float binsPerEV() {
        return 255f / (maxEV - minEV);
    }

    /** {@return EV per bin, {@code (maxEV - minEV) / 255} in single precision: exposure.comp's push constant} */
    public float evPerBin() {
        return (maxEV - minEV) / 255f;
    }

    /** {@return {@code log2(middleGrey)} rounded to float: exposure.comp's push constant} */
    public float log2MiddleGrey() {
        return (float) (Math.log(middleGrey) / Math.log(2.0));
    }
}

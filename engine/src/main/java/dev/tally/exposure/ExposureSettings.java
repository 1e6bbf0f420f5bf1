package dev.tally.exposure;

/**
 * Auto-exposure settings; immutable. {@link #DEFAULTS} holds the defaults, {@code with...} methods
 * derive variants, and the constructor rejects anything out of range with an
 * {@link IllegalArgumentException} that names the setting and its allowed range.
 *
 * @param minEV          log2 luminance at the bottom of histogram bin 1 (default -10)
 * @param maxEV          log2 luminance at the top of bin 255 (default +20); {@code minEV < maxEV}
 * @param lowPercentile  samples below this cumulative fraction are not metered (default 0.10)
 * @param highPercentile samples above this cumulative fraction are not metered (default 0.90);
 *                       {@code 0 <= lowPercentile < highPercentile <= 1}
 * @param middleGrey     the scene luminance the metered mean maps to (default 0.18), {@code > 0}
 * @param compensation   exposure compensation in stops; +1 makes the image one stop brighter (default 0)
 * @param brightenSpeed  adaptation speed in stops per second when the scene gets brighter, i.e. the
 *                       target EV rises above the current one (default 3), {@code > 0}
 * @param darkenSpeed    adaptation speed in stops per second when the scene gets darker (default 1), {@code > 0}
 * @param metering       how pixels are weighted (default {@link Metering#UNIFORM})
 */
public record ExposureSettings(float minEV, float maxEV, float lowPercentile, float highPercentile,
                               float middleGrey, float compensation, float brightenSpeed, float darkenSpeed,
                               Metering metering) {

    /** Lowest minEV and highest maxEV accepted: the log2 range of positive finite floats, rounded out. */
    public static final float EV_LIMIT_LOW = -160f;
    public static final float EV_LIMIT_HIGH = 160f;

    /**
     * The exposure.* keys of a configuration. Ranges per key are checked by the configuration; the
     * rules between keys (minEV < maxEV, low < high percentile) are checked here and name both keys.
     */
    public static ExposureSettings fromConfig(dev.tally.config.Config c) {
        Metering m = switch (c.string("exposure.metering")) {
            case "centre" -> Metering.CENTRE;
            case "mask" -> Metering.MASK;
            default -> Metering.UNIFORM;
        };
        try {
            return new ExposureSettings((float) c.real("exposure.minEV"), (float) c.real("exposure.maxEV"),
                    (float) c.real("exposure.lowPercentile"), (float) c.real("exposure.highPercentile"), (float) c.real("exposure.middleGrey"),
                    (float) c.real("exposure.compensation"), (float) c.real("exposure.brightenSpeed"), (float) c.real("exposure.darkenSpeed"), m);
        } catch (IllegalArgumentException e) {
            throw new dev.tally.config.ConfigException("exposure.*: " + e.getMessage());
        }
    }

    public static final ExposureSettings DEFAULTS =
            new ExposureSettings(-10f, 20f, 0.10f, 0.90f, 0.18f, 0f, 3f, 1f, Metering.UNIFORM);

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

    public ExposureSettings withRange(float minEV, float maxEV) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed, metering);
    }

    public ExposureSettings withPercentiles(float low, float high) {
        return new ExposureSettings(minEV, maxEV, low, high, middleGrey, compensation, brightenSpeed, darkenSpeed, metering);
    }

    public ExposureSettings withMiddleGrey(float grey) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, grey, compensation, brightenSpeed, darkenSpeed, metering);
    }

    public ExposureSettings withCompensation(float stops) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, stops, brightenSpeed, darkenSpeed, metering);
    }

    public ExposureSettings withSpeeds(float brighten, float darken) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brighten, darken, metering);
    }

    public ExposureSettings withMetering(Metering m) {
        return new ExposureSettings(minEV, maxEV, lowPercentile, highPercentile, middleGrey, compensation, brightenSpeed, darkenSpeed, m);
    }

    /** Bins per EV, {@code 255 / (maxEV - minEV)} in single precision: histogram.comp's push constant. */
    public float binsPerEV() {
        return 255f / (maxEV - minEV);
    }

    /** EV per bin, {@code (maxEV - minEV) / 255} in single precision: exposure.comp's push constant. */
    public float evPerBin() {
        return (maxEV - minEV) / 255f;
    }

    /** {@code log2(middleGrey)} rounded to float: exposure.comp's push constant. */
    public float log2MiddleGrey() {
        return (float) (Math.log(middleGrey) / Math.log(2.0));
    }
}

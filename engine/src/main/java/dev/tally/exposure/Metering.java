package dev.tally.exposure;

/**
 * How much each pixel counts in the exposure histogram. The weight is quantized to 1/256 steps on the
 * GPU and in the CPU reference model of the tests alike (round(clamp(w, 0, 1) * 256)).
 */
public enum Metering {
    /** Every pixel weighs 1: a W x H image adds W * H to the histogram. */
    UNIFORM(0),
    /**
     * {@code w = max(0.05, 1 - (u^2 + v^2))} with {@code u = (2x + 1 - W) / W}, {@code v = (2y + 1 - H) / H}:
     * 1 at the centre, down to 0.05 on and outside the ellipse inscribed in the frame.
     */
    CENTRE(1),
    /** The red channel of a mask image, clamped to [0, 1] (NaN counts as 0), nearest texel per pixel. */
    MASK(2);

    private final int define;

    Metering(int define) {
        this.define = define;
    }

    /** {@return the value of histogram.comp's {@code METERING} define for this mode} */
    public int define() {
        return define;
    }
}

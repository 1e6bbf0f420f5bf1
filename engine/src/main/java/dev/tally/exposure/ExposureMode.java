package dev.tally.exposure;

/** Where the exposure comes from. The value is exposure.comp's {@code mode} push constant. */
public enum ExposureMode {
    /** Metered from the HDR image's histogram, with the curve, clamps, band and adaptation. */
    AUTO(0),
    /** A fixed exposure, {@link ExposureSettings#manualEV()} (minus compensation), applied at once. */
    MANUAL(1),
    /** A fixed exposure from aperture, shutter time and ISO ({@link ExposureSettings#physicalEV100()}), applied at once. */
    PHYSICAL(2);

    private final int code;

    ExposureMode(int code) {
        this.code = code;
    }

    /** {@return the value of exposure.comp's {@code mode} push constant for this mode} */
    public int code() {
        return code;
    }
}

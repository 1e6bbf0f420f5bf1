package dev.tally.internal.vk;

/**
 * Which physical device to use: "auto" (discrete > integrated > virtual > CPU), an index as listed
 * by {@code ./tally info}, or a case-insensitive substring of the device name.
 */
public record DeviceSelection(String spec) {
    public static final String ENV = "TALLY_DEVICE";
    public static final DeviceSelection AUTO = new DeviceSelection("auto");

    public DeviceSelection {
        spec = spec == null || spec.isBlank() ? "auto" : spec.trim();
    }

    /** The explicit choice if given, else the environment variable, else auto. */
    public static DeviceSelection resolve(String explicit) {
        if (explicit != null && !explicit.isBlank() && !explicit.equals("auto")) {
            return new DeviceSelection(explicit);
        }
        String env = System.getenv(ENV);
        return env != null && !env.isBlank() ? new DeviceSelection(env) : AUTO;
    }

    public boolean isAuto() {
        return spec.equals("auto");
    }

    /** The index when the spec is a number, else -1. */
    public int index() {
        return spec.chars().allMatch(Character::isDigit) ? Integer.parseInt(spec) : -1;
    }
}

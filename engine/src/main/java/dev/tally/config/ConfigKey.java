package dev.tally.config;

import java.util.List;

/**
 * One configuration key: its type, default, allowed range and documentation.
 *
 * @param allowsAuto "auto" is accepted and means "let Tally choose for this device"
 */
public record ConfigKey(String name, Type type, String defaultValue, double min, double max, List<String> choices,
                        boolean allowsAuto, String doc) {
    /** How a key's value is spelled and checked: an integer, a real number, true/false, one of a list, or free text. */
    public enum Type { INT, FLOAT, BOOL, CHOICE, STRING }

    public static ConfigKey integer(String name, String def, long min, long max, boolean auto, String doc) {
        return new ConfigKey(name, Type.INT, def, min, max, List.of(), auto, doc);
    }

    public static ConfigKey real(String name, String def, double min, double max, String doc) {
        return new ConfigKey(name, Type.FLOAT, def, min, max, List.of(), false, doc);
    }

    public static ConfigKey bool(String name, String def, String doc) {
        return new ConfigKey(name, Type.BOOL, def, 0, 0, List.of(), false, doc);
    }

    public static ConfigKey choice(String name, String def, List<String> choices, String doc) {
        return new ConfigKey(name, Type.CHOICE, def, 0, 0, choices, false, doc);
    }

    public static ConfigKey string(String name, String def, String doc) {
        return new ConfigKey(name, Type.STRING, def, 0, 0, List.of(), false, doc);
    }

    /** What values are allowed, in words, for error messages. */
    public String allowed() {
        String base = switch (type) {
            case INT -> "an integer in " + (long) min + ".." + (long) max;
            case FLOAT -> "a number in " + min + ".." + max;
            case BOOL -> "true or false";
            case CHOICE -> "one of " + String.join(", ", choices);
            case STRING -> "any text";
        };
        return allowsAuto ? base + " or auto" : base;
    }

    /** Returns the normalised value, or throws with {@code where} (file:line or flag) in the message. */
    public String validate(String raw, String where) {
        String v = raw.strip();
        if (allowsAuto && v.equals("auto")) {
            return v;
        }
        String problem = null;
        switch (type) {
            case INT -> {
                try {
                    long x = Long.parseLong(v);
                    if (x < min || x > max) {
                        problem = "out of range";
                    }
                } catch (NumberFormatException e) {
                    // Digits too many for a long are a number out of range, not text.
                    problem = v.matches("[+-]?[0-9]+") ? "out of range" : "not an integer";
                }
            }
            case FLOAT -> {
                try {
                    double x = Double.parseDouble(v);
                    if (!Double.isFinite(x) || x < min || x > max) {
                        problem = "out of range";
                    }
                } catch (NumberFormatException e) {
                    problem = "not a number";
                }
            }
            case BOOL -> {
                if (!v.equals("true") && !v.equals("false")) {
                    problem = "not a boolean";
                }
            }
            case CHOICE -> {
                if (!choices.contains(v)) {
                    problem = "not an allowed value";
                }
            }
            case STRING -> {
            }
        }
        if (problem != null) {
            throw new ConfigException(where + ": key '" + name + "': " + problem + " \"" + v + "\"; expected " + allowed());
        }
        return v;
    }
}

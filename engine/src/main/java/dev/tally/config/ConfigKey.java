package dev.tally.config;

import java.util.List;

/**
 * One configuration key: its type, default, allowed range and documentation. The schema
 * ({@link ConfigSchema#standard()}) holds Tally's keys; tools list them to document and check settings.
 *
 * @param name         the dotted name, e.g. {@code exposure.middleGrey}
 * @param type         how the value is spelled and checked
 * @param defaultValue the built-in default, as a configuration file spells it
 * @param min          the smallest value allowed (INT and FLOAT keys; 0 otherwise)
 * @param max          the largest value allowed (INT and FLOAT keys; 0 otherwise)
 * @param choices      the values allowed (CHOICE keys; empty otherwise)
 * @param allowsAuto   "auto" is accepted and means "let Tally choose for this device"
 * @param doc          what the key does, in one line
 */
public record ConfigKey(String name, Type type, String defaultValue, double min, double max, List<String> choices,
                        boolean allowsAuto, String doc) {
    /** How a key's value is spelled and checked: an integer, a real number, true/false, one of a list, or free text. */
    public enum Type {
        /** A whole number within [min, max]. */
        INT,
        /** A finite number within [min, max]. */
        FLOAT,
        /** {@code true} or {@code false}. */
        BOOL,
        /** One of {@link ConfigKey#choices()}. */
        CHOICE,
        /** Free text, checked by whoever reads it. */
        STRING
    }

    /**
     * {@return an INT key}
     *
     * @param name the dotted name
     * @param def  the default
     * @param min  the smallest value allowed
     * @param max  the largest value allowed
     * @param auto whether "auto" is accepted too
     * @param doc  what the key does
     */
    public static ConfigKey integer(String name, String def, long min, long max, boolean auto, String doc) {
        return new ConfigKey(name, Type.INT, def, min, max, List.of(), auto, doc);
    }

    /**
     * {@return a FLOAT key}
     *
     * @param name the dotted name
     * @param def  the default
     * @param min  the smallest value allowed
     * @param max  the largest value allowed
     * @param doc  what the key does
     */
    public static ConfigKey real(String name, String def, double min, double max, String doc) {
        return new ConfigKey(name, Type.FLOAT, def, min, max, List.of(), false, doc);
    }

    /**
     * {@return a BOOL key}
     *
     * @param name the dotted name
     * @param def  the default, {@code "true"} or {@code "false"}
     * @param doc  what the key does
     */
    public static ConfigKey bool(String name, String def, String doc) {
        return new ConfigKey(name, Type.BOOL, def, 0, 0, List.of(), false, doc);
    }

    /**
     * {@return a CHOICE key}
     *
     * @param name    the dotted name
     * @param def     the default, one of {@code choices}
     * @param choices the values allowed
     * @param doc     what the key does
     */
    public static ConfigKey choice(String name, String def, List<String> choices, String doc) {
        return new ConfigKey(name, Type.CHOICE, def, 0, 0, choices, false, doc);
    }

    /**
     * {@return a STRING key}
     *
     * @param name the dotted name
     * @param def  the default
     * @param doc  what the key does
     */
    public static ConfigKey string(String name, String def, String doc) {
        return new ConfigKey(name, Type.STRING, def, 0, 0, List.of(), false, doc);
    }

    /** {@return what values are allowed, in words, for error messages (e.g. "an integer in 1..4 or auto")} */
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

    /**
     * Checks a value against this key.
     *
     * @param raw   the value as written (surrounding blanks are ignored)
     * @param where where it was written, for the message: "FILE:LINE" or a flag
     * @return the normalised value (stripped)
     * @throws ConfigException naming {@code where}, the key, the value and what is allowed
     */
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

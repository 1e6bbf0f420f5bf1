package dev.tally.demo;

import java.util.Locale;

/** The few JSON spellings Tally writes: numbers (NaN and infinities as strings) and escaped strings. */
final class Json {
    private Json() {
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "\"NaN\"";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return Double.toString(v);
    }

    /**
     * An f32 result as the double it equals exactly (0.7175949811935425, not 0.717595): a reader that parses
     * it as float64 gets the same number the GPU produced, so comparing with the input's values in float64
     * gives equality. The float's own shortest text would parse to a different double.
     */
    static String number(float v) {
        return number((double) v);
    }

    static String string(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}

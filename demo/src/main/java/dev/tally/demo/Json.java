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

    static String number(float v) {
        if (Float.isNaN(v) || Float.isInfinite(v)) {
            return number((double) v);
        }
        // The float's own shortest text, so the value printed is exactly the f32 result.
        return Float.toString(v).replace("E", "e");
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

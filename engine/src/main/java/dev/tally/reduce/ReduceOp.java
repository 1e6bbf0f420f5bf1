package dev.tally.reduce;

import java.util.Locale;

/**
 * Reduction operators over f32. For n = 0 each returns its identity: sum 0, min +Inf, max -Inf, and
 * mean NaN (0/0). Any NaN in the input makes every result NaN; infinities follow IEEE arithmetic.
 */
public enum ReduceOp {
    /** The sum (identity 0). */
    SUM,
    /** The smallest value (identity +Inf). */
    MIN,
    /** The largest value (identity -Inf). */
    MAX,
    /** The sum divided by the count (NaN for no values). */
    MEAN;

    /** {@return the lower-case name ({@code sum}, {@code min}, {@code max}, {@code mean}), as {@link #parse} reads it} */
    public String id() {
        return id;
    }

    /** The lower-case name, made once: the reducer keys its pipelines by it every frame. */
    private final String id = name().toLowerCase(Locale.ROOT);

    /**
     * {@return the operator}
     *
     * @param s {@code sum}, {@code min}, {@code max} or {@code mean}
     * @throws IllegalArgumentException naming the text and the operators allowed
     */
    public static ReduceOp parse(String s) {
        for (ReduceOp op : values()) {
            if (op.id().equals(s)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown op '" + s + "'; expected sum, min, max or mean");
    }

    /** {@return the result for no values: sum 0, min +Inf, max -Inf, mean NaN} */
    public float identity() {
        return switch (this) {
            case SUM -> 0f;
            case MIN -> Float.POSITIVE_INFINITY;
            case MAX -> Float.NEGATIVE_INFINITY;
            case MEAN -> Float.NaN;
        };
    }
}

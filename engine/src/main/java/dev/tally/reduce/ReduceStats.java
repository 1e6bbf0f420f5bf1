package dev.tally.reduce;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The statistics reduction's result: count, sum, min, max, mean and population variance (the mean
 * squared deviation, M2 / count) of f32 values, as reduce_stats.comp writes them. For n = 0: count 0,
 * sum 0, min +Inf, max -Inf, mean and variance NaN. A NaN in the input makes every value but the
 * count NaN.
 */
public record ReduceStats(long count, float sum, float min, float max, float mean, float variance) {
    /** Bytes of one record in the shader (partials and the result alike). */
    public static final int RECORD_BYTES = 32;

    /** The record at {@code bytes}' position (little-endian, as the GPU wrote it). */
    public static ReduceStats read(ByteBuffer bytes) {
        ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int at = b.position();
        return new ReduceStats(Integer.toUnsignedLong(b.getInt(at)), b.getFloat(at + 4), b.getFloat(at + 8), b.getFloat(at + 12),
                b.getFloat(at + 16), b.getFloat(at + 24));
    }

    /** The standard deviation, sqrt(variance). */
    public double standardDeviation() {
        return Math.sqrt(variance);
    }
}

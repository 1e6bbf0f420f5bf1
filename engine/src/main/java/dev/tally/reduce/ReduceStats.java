package dev.tally.reduce;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The statistics reduction's result: count, sum, min, max, mean and population variance (the mean
 * squared deviation, M2 / count) of f32 values, as reduce_stats.comp writes them. For n = 0: count 0,
 * sum 0, min +Inf, max -Inf, mean and variance NaN. Non-finite input follows the sum: a NaN makes every
 * value but the count NaN; +Inf (or -Inf) makes the sum and mean +Inf (-Inf) and the variance NaN; both
 * infinities make the sum, mean and variance NaN (min and max stay -Inf and +Inf). Finite values whose
 * sum overflows give a sum and mean of +-Inf, and squares beyond the f32 range a variance of +Inf or NaN.
 * Whatever the order of the data, the sum is within about 1e-7 and the variance about 1e-7 of a
 * float64 computation on the same values (compensated sums and Chan's merges, see reduce_stats.comp).
 *
 * @param count    how many values
 * @param sum      their sum
 * @param min      the smallest
 * @param max      the largest
 * @param mean     sum / count
 * @param variance the population variance
 */
public record ReduceStats(long count, float sum, float min, float max, float mean, float variance) {
    /** Bytes of one record in the shader (partials and the result alike). */
    public static final int RECORD_BYTES = 32;
    /** Byte offsets in a record: the count (uint32), then the f32 sum, min, max, mean and variance. */
    public static final int COUNT_OFFSET = 0, SUM_OFFSET = 4, MIN_OFFSET = 8, MAX_OFFSET = 12, MEAN_OFFSET = 16, VARIANCE_OFFSET = 24;

    /**
     * The record at {@code bytes}' position (little-endian, as the GPU wrote it), e.g. from a readback sample.
     *
     * @param bytes at least {@link #RECORD_BYTES} from its position, which does not move
     * @return the statistics
     */
    public static ReduceStats read(ByteBuffer bytes) {
        ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int at = b.position();
        return new ReduceStats(Integer.toUnsignedLong(b.getInt(at + COUNT_OFFSET)), b.getFloat(at + SUM_OFFSET), b.getFloat(at + MIN_OFFSET),
                b.getFloat(at + MAX_OFFSET), b.getFloat(at + MEAN_OFFSET), b.getFloat(at + VARIANCE_OFFSET));
    }

    /** {@return the standard deviation, sqrt(variance)} */
    public double standardDeviation() {
        return Math.sqrt(variance);
    }
}

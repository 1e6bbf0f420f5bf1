package dev.tally.internal.exposure;

import java.util.Arrays;

/**
 * The GPU histogram's global accumulator, modelled word for word: per bin two 32-bit words (lo, hi)
 * holding a 64-bit count of 1/256-pixel weight units. Each add is one 32-bit add on lo; when the add
 * wraps lo (the old value plus the amount exceeds 2^32 - 1) it carries 1 into hi, which is what
 * histogram.comp's {@code addToGlobal} does with the value {@code atomicAdd} returns.
 *
 * <p>Capacity: 2^64 units, i.e. 2^56 pixels at weight 1; 7680 x 4320 at weight 1 is 8,493,465,600
 * units (hi = 1 after the first 2^32). Per workgroup, histogram.comp first sums into one 32-bit shared
 * word per bin; {@link #mergeGroup(long[])} checks that such a group sum fits in 32 bits, as it must
 * for the shader to be right (at most 256 invocations x ROWS_PER_INVOCATION pixels x 256 each).
 */
public final class FixedPointHistogram {
    /** Exclusive upper bound of a 32-bit unsigned word. */
    public static final long WORD = 1L << 32;

    private final int[] lo = new int[ExposureModel.BINS];
    private final int[] hi = new int[ExposureModel.BINS];
    private long carries;
    private long globalAdds;

    /** One workgroup's merge: its shared 32-bit bins, added to the global words (zero bins are skipped). */
    public void mergeGroup(long[] groupBins) {
        if (groupBins.length != ExposureModel.BINS) {
            throw new IllegalArgumentException("a group has " + ExposureModel.BINS + " bins, got " + groupBins.length);
        }
        for (int bin = 0; bin < groupBins.length; bin++) {
            long amount = groupBins[bin];
            if (amount >= WORD) {
                throw new IllegalStateException("shared bin " + bin + " of a workgroup reached " + amount
                        + ", which a 32-bit shared counter cannot hold");
            }
            if (amount != 0) {
                add(bin, amount);
            }
        }
    }

    /** One {@code addToGlobal(bin, amount)}: a 32-bit wrapping add on lo, carry into hi on wrap. */
    public void add(int bin, long amount) {
        if (amount < 0 || amount >= WORD) {
            throw new IllegalArgumentException("an add is one 32-bit word, got " + amount);
        }
        int before = lo[bin];
        int after = before + (int) amount;          // wraps modulo 2^32 like a uint
        lo[bin] = after;
        if (Integer.compareUnsigned(after, before) < 0) {   // before + amount < before: it wrapped
            hi[bin]++;
            carries++;
        }
        globalAdds++;
    }

    /** The exact 64-bit count of bin {@code bin} (units of 1/256 pixel). */
    public long count(int bin) {
        return (Integer.toUnsignedLong(hi[bin]) << 32) | Integer.toUnsignedLong(lo[bin]);
    }

    public long lo(int bin) {
        return Integer.toUnsignedLong(lo[bin]);
    }

    public long hi(int bin) {
        return Integer.toUnsignedLong(hi[bin]);
    }

    /** How many adds wrapped lo and carried. */
    public long carries() {
        return carries;
    }

    /** How many global adds were made (the GPU's global atomics on lo). */
    public long globalAdds() {
        return globalAdds;
    }

    /**
     * histogram.comp's RESOLVE: each bin as a float in pixel units ({@code count / 256}, rounded once),
     * then every word zeroed for the next frame.
     */
    public float[] resolve() {
        float[] out = new float[ExposureModel.BINS];
        for (int bin = 0; bin < out.length; bin++) {
            out[bin] = fixedPointToFloat(hi[bin], lo[bin]) * (1f / ExposureModel.WEIGHT_ONE);
        }
        Arrays.fill(lo, 0);
        Arrays.fill(hi, 0);
        return out;
    }

    /**
     * A port of histogram.comp's {@code fixedPointToFloat}: {@code hi * 2^32 + lo} (both unsigned) to
     * the nearest float, ties to even, with 32-bit operations only. It equals {@code (float) count}
     * (Java's long to float conversion is correctly rounded), which the tests check.
     */
    public static float fixedPointToFloat(int hi, int lo) {
        if (hi == 0) {
            return (float) Integer.toUnsignedLong(lo);
        }
        int shift = (31 - Integer.numberOfLeadingZeros(hi)) + 1;   // findMSB(hi) + 1: 1..32
        int window;
        int dropped;
        if (shift == 32) {
            window = hi;
            dropped = lo;
        } else {
            window = (hi << (32 - shift)) | (lo >>> shift);
            dropped = lo << (32 - shift);
        }
        window |= dropped != 0 ? 1 : 0;
        return Math.scalb((float) Integer.toUnsignedLong(window), shift);
    }
}

package dev.tally.exposure;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_FORMAT_B10G11R11_UFLOAT_PACK32;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R16G16B16A16_SFLOAT;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R32G32B32A32_SFLOAT;

/**
 * The auto-exposure shaders' interface, for whoever records them: file names, defines, group counts,
 * buffer sizes, record layouts and push-constant packing. The GLSL side of these numbers lives in
 * shaders/exposure_common.glsl and the shader headers; ExposureShadersCompileTest checks they agree.
 *
 * <pre>
 * pass                      bindings (set 0)                                    push      dispatch
 * histogram.comp            0 HDR storage image (readonly), 1 accumulator,     8 bytes   histogramGroupCounts
 *   (ACCUMULATE)            [2 mask sampler2D when MASK]
 * histogram.comp            0 HDR storage image, 1 accumulator + ticket,       8 bytes   histogramGroupCounts
 *   (FUSED_RESOLVE, engine) 2 bins (256 floats), [3 mask when MASK]
 * histogram.comp            0 accumulator, 1 bins (256 floats)                 none      1 x 1 x 1
 *   (RESOLVE)
 * engine reduction          sum of the 256 bins -> total (1 float)
 * normalize.comp            0 bins, 1 total, 2 normalized (257 floats)        4 bytes   1 x 1 x 1
 *                           (push: count = 256; the engine's one normalize shader)
 * exposure.comp             0 normalized, 1 filtered history (257 floats),    72 bytes  1 x 1 x 1
 *                           2 filtered, 3 record history (16 floats),
 *                           4 record, 5 curve table (68 floats)
 * tonemap.vert/.frag        0 HDR sampler2D, 1 record (fragment, readonly)    none      draw 3 vertices
 * </pre>
 * Every buffer binding is a storage buffer. The accumulator and the first histories must start zeroed.
 *
 * <p>The exposure record, 16 floats (64 bytes), one per frame, written by exposure.comp, read by
 * tone mapping, the HUD and the readback ring; integers are stored as exact floats:
 * <pre>
 * index  name          meaning
 *  0     EV            applied exposure in EV: the image is scaled by exp2(-ev)
 *  1     MULTIPLIER    exp2(-ev)
 *  2     MEAN_LOG_LUM  metered mean log2 luminance between the percentiles (last measured frame)
 *  3     VALID         1: ev comes from a measurement or a fixed mode; 0: none since creation or reset
 *  4     LOW_EV        log2 luminance at the low percentile (last measured frame)
 *  5     HIGH_EV       log2 luminance at the high percentile (last measured frame)
 *  6     TARGET_EV     the EV adaptation moves toward, after curve, compensation and clamps
 *  7     MEASURED      1: this frame's histogram was usable; 0: values carried from history
 *  8     CLAMP_HIT     -1: target raised to clampMinEV, +1: lowered to clampMaxEV, 0: neither
 *  9     CURVE_EV      the compensation curve's output (stops) at this frame's scene EV
 * 10     PHASE         0 snap, 1 linear, 2 exponential, 3 holding (see PHASE_*)
 * 11     SCENE_EV      MEAN_LOG_LUM - log2(middleGrey): the curve's input
 * 12-15  reserved      0
 * </pre>
 */
public final class ExposureShaderLayout {
    /** The histogram shader's file name under shaders/: accumulate, resolve, or both fused. */
    public static final String HISTOGRAM = "histogram.comp";
    /** The normalize shader's file name: the bins divided by their GPU-side total. */
    public static final String NORMALIZE = "normalize.comp";
    /** The exposure shader's file name: metering, curve, clamps and adaptation into the record. */
    public static final String EXPOSURE = "exposure.comp";
    /** The tonemap pass's vertex shader (a fullscreen triangle). */
    public static final String TONEMAP_VERTEX = "tonemap.vert";
    /** The tonemap pass's fragment shader. */
    public static final String TONEMAP_FRAGMENT = "tonemap.frag";
    /** The header the exposure shaders share: the record's indices, the bin mapping, the metering weights. */
    public static final String COMMON = "exposure_common.glsl";

    /** Histogram bins: bin 0 for what is not metered, 1..255 over [minEV, maxEV]. */
    public static final int BINS = 256;

    // histogram.comp
    /** histogram.comp's workgroup width in invocations (pixels). */
    public static final int HISTOGRAM_GROUP_WIDTH = 16;
    /** histogram.comp's workgroup height in invocations; each invocation covers ROWS_PER_INVOCATION rows. */
    public static final int HISTOGRAM_GROUP_HEIGHT = 16;
    /** Specialization constant id of ROWS_PER_INVOCATION (uint). */
    public static final int SPEC_ROWS_PER_INVOCATION = 0;
    /** ROWS_PER_INVOCATION when none is chosen for the device ({@link #oneWaveRows} chooses one). */
    public static final int DEFAULT_ROWS_PER_INVOCATION = 32;
    /** A group adds at most 256 x 256 x rows units to one 32-bit shared bin: rows below 65536 cannot wrap it. */
    public static final int MAX_ROWS_PER_INVOCATION = 65535;
    /** histogram.comp's define for the HDR image's GLSL format qualifier ({@link HdrFormat#qualifier()}). */
    public static final String DEFINE_HDR_FORMAT = "HDR_FORMAT";
    /** histogram.comp's define for the metering mode ({@link Metering#define()}). */
    public static final String DEFINE_METERING = "METERING";
    /** histogram.comp's define that selects the RESOLVE pipeline: accumulator to bins, accumulator zeroed. */
    public static final String DEFINE_RESOLVE = "HISTOGRAM_RESOLVE";
    /** The HDR image as a combined image sampler read with texelFetch, for images without STORAGE usage. */
    public static final String DEFINE_HDR_SAMPLED = "HDR_SAMPLED";
    /** ACCUMULATE that also resolves, in its last workgroup to finish (what the engine runs). */
    public static final String DEFINE_FUSED_RESOLVE = "FUSED_RESOLVE";
    /** 256 x {uint lo, uint hi}. */
    public static final long ACCUMULATOR_BYTES = BINS * 8L;
    /** The fused pipeline's accumulator: the bins, then the last-group ticket (uint), padded to 16 bytes. */
    public static final long FUSED_ACCUMULATOR_BYTES = ACCUMULATOR_BYTES + 16;
    /** The resolved bins: {@link #BINS} floats. */
    public static final long BINS_BYTES = BINS * 4L;
    /** histogram.comp's push constants: minEV and bins per EV ({@link #putHistogramPush}). */
    public static final int HISTOGRAM_PUSH_BYTES = 8;

    // normalize.comp (count = BINS)
    /** The bins' total: one float. */
    public static final long TOTAL_BYTES = 4;
    /** normalize.comp's push constant: the count of floats to divide ({@link #putNormalizePush}). */
    public static final int NORMALIZE_PUSH_BYTES = 4;
    /** Index of the normalized histogram's flag: 1.0 when the total was usable, 0.0 when it was not. */
    public static final int NORMALIZED_VALID = 256;
    /** The normalized histogram: {@link #BINS} quotients, then the flag. */
    public static final int NORMALIZED_FLOATS = 257;
    /** {@link #NORMALIZED_FLOATS} floats. */
    public static final long NORMALIZED_BYTES = NORMALIZED_FLOATS * 4L;

    // exposure.comp record (floats)
    /** Record index: the applied exposure in EV; the image is scaled by exp2(-ev). */
    public static final int EV = 0;
    /** Record index: exp2(-ev), what the tonemap pass multiplies the HDR image by. */
    public static final int MULTIPLIER = 1;
    /** Record index: the metered mean log2 luminance between the percentiles (last measured frame). */
    public static final int MEAN_LOG_LUM = 2;
    /** Record index: 1 when the EV comes from a measurement or a fixed mode; 0 when none since creation or reset. */
    public static final int VALID = 3;
    /** Record index: log2 luminance at the low percentile (last measured frame). */
    public static final int LOW_EV = 4;
    /** Record index: log2 luminance at the high percentile (last measured frame). */
    public static final int HIGH_EV = 5;
    /** Record index: the EV adaptation moves toward, after curve, compensation and clamps. */
    public static final int TARGET_EV = 6;
    /** Record index: 1 when this frame's histogram was usable; 0 when values were carried from history. */
    public static final int MEASURED = 7;
    /** Record index: -1 when the target was raised to clampMinEV, +1 when lowered to clampMaxEV, 0 neither. */
    public static final int CLAMP_HIT = 8;
    /** Record index: the compensation curve's output (stops) at this frame's scene EV. */
    public static final int CURVE_EV = 9;
    /** Record index: the adaptation phase, one of the PHASE_* values ({@link #phaseName}). */
    public static final int PHASE = 10;
    /** Record index: MEAN_LOG_LUM - log2(middleGrey), the curve's input. */
    public static final int SCENE_EV = 11;
    /** Floats of the exposure record; 12 to 15 are reserved (0). */
    public static final int EXPOSURE_FLOATS = 16;
    /** Bytes of the exposure record: the size of a readback capture of it. */
    public static final long EXPOSURE_BYTES = EXPOSURE_FLOATS * 4L;
    /** exposure.comp's push constants ({@link #putExposurePush}). */
    public static final int EXPOSURE_PUSH_BYTES = 72;
    /** exposure.comp's storage buffer bindings, in order: bins, total, normalized (written), filtered before/now, record before/now, curve. */
    public static final int EXPOSURE_BINDINGS = 8;

    // PHASE values
    /** Phase: the EV was set to the target (the first frame, a reset, manual and physical modes). */
    public static final int PHASE_SNAP = 0;
    /** Phase: farther than transitionEV from the target, moving at the adaptation speed. */
    public static final int PHASE_LINEAR = 1;
    /** Phase: within transitionEV of the target, closing in exponentially. */
    public static final int PHASE_EXPONENTIAL = 2;
    /** Phase: the EV holds (the target is inside the dead band, or nothing was measured). */
    public static final int PHASE_HOLDING = 3;

    // exposure.comp binding 5
    /** The curve table exposure.comp reads: {@link ExposureCurve#TABLE_FLOATS} floats. */
    public static final int CURVE_TABLE_FLOATS = ExposureCurve.TABLE_FLOATS;
    /** {@link #CURVE_TABLE_FLOATS} floats. */
    public static final long CURVE_TABLE_BYTES = ExposureCurve.TABLE_BYTES;

    /**
     * The record's phase as a word, for HUDs and logs.
     *
     * @param phase the record's {@link #PHASE} value
     * @return snap, linear, exponential or holding; unknown for any other value
     */
    public static String phaseName(float phase) {
        return switch ((int) phase) {
            case PHASE_SNAP -> "snap";
            case PHASE_LINEAR -> "linear";
            case PHASE_EXPONENTIAL -> "exponential";
            case PHASE_HOLDING -> "holding";
            default -> "unknown";
        };
    }

    // tonemap.frag specialization constants
    /** bool: true for a UNORM target (the shader encodes sRGB), false for an _SRGB target. */
    public static final int SPEC_TONEMAP_ENCODE_SRGB = 0;
    /** float: scale before the ACES curve, 1.0 by default, 0.6 for the original ACES brightness. */
    public static final int SPEC_TONEMAP_ACES_INPUT_SCALE = 1;

    private ExposureShaderLayout() {
    }

    /**
     * The HDR image formats histogram.comp reads as a storage image. B10G11R11 (unsigned floats of 6, 6 and 5
     * mantissa bits, the same exponent range as a half) carries the same range as RGBA16F in half the bytes.
     */
    public enum HdrFormat {
        /** VK_FORMAT_R16G16B16A16_SFLOAT, the usual HDR render target. */
        RGBA16F("rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT),
        /** VK_FORMAT_R32G32B32A32_SFLOAT. */
        RGBA32F("rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT),
        /** VK_FORMAT_B10G11R11_UFLOAT_PACK32: no alpha, no negative values, 4 bytes a texel. */
        B10G11R11("r11f_g11f_b10f", VK_FORMAT_B10G11R11_UFLOAT_PACK32);

        private final String qualifier;
        private final int vkFormat;

        HdrFormat(String qualifier, int vkFormat) {
            this.qualifier = qualifier;
            this.vkFormat = vkFormat;
        }

        /** {@return the GLSL image format qualifier, the value of the HDR_FORMAT define} */
        public String qualifier() {
            return qualifier;
        }

        /** {@return the VkFormat} */
        public int vkFormat() {
            return vkFormat;
        }

        /**
         * {@return the format whose Vulkan format is {@code vkFormat}, or null when the histogram does not read it}
         *
         * @param vkFormat a VkFormat
         */
        public static HdrFormat of(int vkFormat) {
            for (HdrFormat f : ALL) {
                if (f.vkFormat == vkFormat) {
                    return f;
                }
            }
            return null;
        }

        /** values() once: each call of values() is a new array, and of() runs every frame. */
        private static final HdrFormat[] ALL = values();

        /** {@return the formats read, comma-separated, for messages} */
        public static String names() {
            StringBuilder b = new StringBuilder();
            for (HdrFormat f : values()) {
                b.append(b.length() == 0 ? "" : ", ").append(f.name());
            }
            return b.toString();
        }
    }

    /**
     * Defines for histogram.comp's ACCUMULATE pipeline.
     *
     * @param format   the HDR image's format
     * @param metering how pixels are weighted
     * @return the defines, in a new mutable map
     */
    public static Map<String, String> histogramDefines(HdrFormat format, Metering metering) {
        Map<String, String> defines = new LinkedHashMap<>();
        defines.put(DEFINE_HDR_FORMAT, format.qualifier());
        defines.put(DEFINE_METERING, Integer.toString(metering.define()));
        return defines;
    }

    /**
     * Defines for histogram.comp's ACCUMULATE pipeline with the resolve fused into its last workgroup.
     *
     * @param format   the HDR image's format
     * @param metering how pixels are weighted
     * @return the defines, in a new mutable map
     */
    public static Map<String, String> fusedHistogramDefines(HdrFormat format, Metering metering) {
        Map<String, String> defines = histogramDefines(format, metering);
        defines.put(DEFINE_FUSED_RESOLVE, "1");
        return defines;
    }

    /**
     * As {@link #fusedHistogramDefines(HdrFormat, Metering)}, reading the image through a sampler or as a storage image.
     *
     * @param format   the HDR image's format
     * @param metering how pixels are weighted
     * @param sampled  true: a combined image sampler (for images without STORAGE usage); false: a storage image
     * @return the defines, in a new mutable map
     */
    public static Map<String, String> fusedHistogramDefines(HdrFormat format, Metering metering, boolean sampled) {
        Map<String, String> defines = fusedHistogramDefines(format, metering);
        if (sampled) {
            defines.put(DEFINE_HDR_SAMPLED, "1");
        }
        return defines;
    }

    /** {@return the defines for histogram.comp's RESOLVE pipeline (unmodifiable)} */
    public static Map<String, String> resolveDefines() {
        return Map.of(DEFINE_RESOLVE, "1");
    }

    /** Histogram groups (256 invocations) resident per SM at once on NVIDIA: 2048 invocations. */
    public static final int HISTOGRAM_GROUPS_PER_SM = 8;
    /** histogram.comp's LOAD_BATCH (image loads issued before binning): rows per invocation are best a multiple of it. */
    public static final int HISTOGRAM_LOAD_BATCH = 4;

    /**
     * Rows per invocation that cover a w x h image with at most {@code sms} x
     * {@link #HISTOGRAM_GROUPS_PER_SM} groups (one resident wave) in bands of equal height, rounded up to
     * a whole number of load batches; at least one batch.
     *
     * @param w   the image's width in pixels, positive
     * @param h   its height, positive
     * @param sms the device's multiprocessor count, positive
     * @return ROWS_PER_INVOCATION, at most {@link #MAX_ROWS_PER_INVOCATION}
     * @throws IllegalArgumentException if a size or the count is not positive
     */
    public static int oneWaveRows(int w, int h, int sms) {
        if (w <= 0 || h <= 0 || sms <= 0) {
            throw new IllegalArgumentException("need a positive size and SM count, got " + w + " x " + h + ", " + sms + " SMs");
        }
        long columns = (w + HISTOGRAM_GROUP_WIDTH - 1) / HISTOGRAM_GROUP_WIDTH;
        long bands = Math.max(1, (long) sms * HISTOGRAM_GROUPS_PER_SM / columns);
        long rows = (h + HISTOGRAM_GROUP_HEIGHT * bands - 1) / (HISTOGRAM_GROUP_HEIGHT * bands);
        rows = (rows + HISTOGRAM_LOAD_BATCH - 1) / HISTOGRAM_LOAD_BATCH * HISTOGRAM_LOAD_BATCH;
        return (int) Math.min(rows, MAX_ROWS_PER_INVOCATION);
    }

    /**
     * Workgroups of histogram.comp's ACCUMULATE for a w x h image.
     *
     * @param w                 the image's width in pixels, positive
     * @param h                 its height, positive
     * @param rowsPerInvocation the pipeline's ROWS_PER_INVOCATION, 1 to {@link #MAX_ROWS_PER_INVOCATION}
     * @return {x, y}; z is 1
     * @throws IllegalArgumentException if a size or the rows are out of range
     */
    public static int[] histogramGroupCounts(int w, int h, int rowsPerInvocation) {
        if (w <= 0 || h <= 0) {
            throw new IllegalArgumentException("image size must be positive, got " + w + " x " + h);
        }
        if (rowsPerInvocation < 1 || rowsPerInvocation > MAX_ROWS_PER_INVOCATION) {
            throw new IllegalArgumentException("rowsPerInvocation must be in 1.." + MAX_ROWS_PER_INVOCATION
                    + ", got " + rowsPerInvocation);
        }
        long tileHeight = (long) HISTOGRAM_GROUP_HEIGHT * rowsPerInvocation;
        return new int[]{(w + HISTOGRAM_GROUP_WIDTH - 1) / HISTOGRAM_GROUP_WIDTH, (int) ((h + tileHeight - 1) / tileHeight)};
    }

    /**
     * histogram.comp's push constants at {@code dst}'s position; the position does not move.
     *
     * @param dst at least {@link #HISTOGRAM_PUSH_BYTES} bytes from its position, in native byte order
     * @param s   the settings whose range is binned
     * @return {@code dst}
     */
    public static ByteBuffer putHistogramPush(ByteBuffer dst, ExposureSettings s) {
        int at = dst.position();
        dst.putFloat(at, s.minEV());
        dst.putFloat(at + 4, s.binsPerEV());
        return dst;
    }

    /**
     * normalize.comp's push constants for the histogram (count = BINS) at {@code dst}'s position; the position does not move.
     *
     * @param dst at least {@link #NORMALIZE_PUSH_BYTES} bytes from its position, in native byte order
     * @return {@code dst}
     */
    public static ByteBuffer putNormalizePush(ByteBuffer dst) {
        dst.putInt(dst.position(), BINS);
        return dst;
    }

    /**
     * exposure.comp's push constants at {@code dst}'s position; the position does not move.
     *
     * @param dst   at least {@link #EXPOSURE_PUSH_BYTES} bytes from its position, in native byte order
     * @param s     the settings
     * @param dt    seconds since the previous frame
     * @param reset true on a camera cut: snap to the target instead of adapting
     * @return {@code dst}
     */
    public static ByteBuffer putExposurePush(ByteBuffer dst, ExposureSettings s, float dt, boolean reset) {
        int at = dst.position();
        dst.putFloat(at, dt);
        dst.putInt(at + 4, reset ? 1 : 0);
        dst.putInt(at + 8, s.mode().code());
        dst.putFloat(at + 12, s.minEV());
        dst.putFloat(at + 16, s.evPerBin());
        dst.putFloat(at + 20, s.lowPercentile());
        dst.putFloat(at + 24, s.highPercentile());
        dst.putFloat(at + 28, s.log2MiddleGrey());
        dst.putFloat(at + 32, s.compensation());
        dst.putFloat(at + 36, s.brightenSpeed());
        dst.putFloat(at + 40, s.darkenSpeed());
        dst.putFloat(at + 44, s.transitionEV());
        dst.putFloat(at + 48, s.deadBandEV());
        dst.putFloat(at + 52, s.histogramBlend(dt));
        dst.putFloat(at + 56, s.clampMinEV());
        dst.putFloat(at + 60, s.clampMaxEV());
        dst.putFloat(at + 64, s.fixedEV());
        dst.putFloat(at + 68, Math.min(s.deadBandEV(), ExposureSettings.SETTLE_EV));
        return dst;
    }
}

package dev.tally.exposure;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * histogram.comp            0 accumulator, 1 bins (256 floats)                 none      1 x 1 x 1
 *   (RESOLVE)
 * engine reduction          sum of the 256 bins -> total (1 float)
 * histogram_normalize.comp  0 bins, 1 total, 2 normalized (257 floats)        none      1 x 1 x 1
 * exposure.comp             0 normalized, 1 history (8 floats), 2 record      40 bytes  1 x 1 x 1
 * tonemap.vert/.frag        0 HDR sampler2D, 1 record (fragment, readonly)    none      draw 3 vertices
 * </pre>
 * Every buffer binding is a storage buffer. The accumulator and the first history must start zeroed.
 */
public final class ExposureShaderLayout {
    public static final String HISTOGRAM = "histogram.comp";
    public static final String NORMALIZE = "histogram_normalize.comp";
    public static final String EXPOSURE = "exposure.comp";
    public static final String TONEMAP_VERTEX = "tonemap.vert";
    public static final String TONEMAP_FRAGMENT = "tonemap.frag";
    public static final String COMMON = "exposure_common.glsl";

    /** Histogram bins: bin 0 for what is not metered, 1..255 over [minEV, maxEV]. */
    public static final int BINS = 256;

    // histogram.comp
    public static final int HISTOGRAM_GROUP_WIDTH = 16;
    public static final int HISTOGRAM_GROUP_HEIGHT = 16;
    /** Specialization constant id of ROWS_PER_INVOCATION (uint). */
    public static final int SPEC_ROWS_PER_INVOCATION = 0;
    public static final int DEFAULT_ROWS_PER_INVOCATION = 32;
    /** A group adds at most 256 x 256 x rows units to one 32-bit shared bin: rows below 65536 cannot wrap it. */
    public static final int MAX_ROWS_PER_INVOCATION = 65535;
    public static final String DEFINE_HDR_FORMAT = "HDR_FORMAT";
    public static final String DEFINE_METERING = "METERING";
    public static final String DEFINE_RESOLVE = "HISTOGRAM_RESOLVE";
    /** 256 x {uint lo, uint hi}. */
    public static final long ACCUMULATOR_BYTES = BINS * 8L;
    public static final long BINS_BYTES = BINS * 4L;
    public static final int HISTOGRAM_PUSH_BYTES = 8;

    // histogram_normalize.comp
    public static final long TOTAL_BYTES = 4;
    public static final int NORMALIZED_VALID = 256;
    public static final int NORMALIZED_FLOATS = 257;
    public static final long NORMALIZED_BYTES = NORMALIZED_FLOATS * 4L;

    // exposure.comp record (floats)
    public static final int EV = 0;
    public static final int MULTIPLIER = 1;
    public static final int MEAN_LOG_LUM = 2;
    public static final int VALID = 3;
    public static final int LOW_EV = 4;
    public static final int HIGH_EV = 5;
    public static final int TARGET_EV = 6;
    public static final int MEASURED = 7;
    public static final int EXPOSURE_FLOATS = 8;
    public static final long EXPOSURE_BYTES = EXPOSURE_FLOATS * 4L;
    public static final int EXPOSURE_PUSH_BYTES = 40;

    // tonemap.frag specialization constants
    /** bool: true for a UNORM target (the shader encodes sRGB), false for an _SRGB target. */
    public static final int SPEC_TONEMAP_ENCODE_SRGB = 0;
    /** float: scale before the ACES curve, 1.0 by default, 0.6 for the original ACES brightness. */
    public static final int SPEC_TONEMAP_ACES_INPUT_SCALE = 1;

    private ExposureShaderLayout() {
    }

    /** The HDR image formats histogram.comp reads as a storage image. */
    public enum HdrFormat {
        RGBA16F("rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT),
        RGBA32F("rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT);

        private final String qualifier;
        private final int vkFormat;

        HdrFormat(String qualifier, int vkFormat) {
            this.qualifier = qualifier;
            this.vkFormat = vkFormat;
        }

        /** The GLSL image format qualifier, the value of the HDR_FORMAT define. */
        public String qualifier() {
            return qualifier;
        }

        public int vkFormat() {
            return vkFormat;
        }
    }

    /** Defines for histogram.comp's ACCUMULATE pipeline. */
    public static Map<String, String> histogramDefines(HdrFormat format, Metering metering) {
        Map<String, String> defines = new LinkedHashMap<>();
        defines.put(DEFINE_HDR_FORMAT, format.qualifier());
        defines.put(DEFINE_METERING, Integer.toString(metering.define()));
        return defines;
    }

    /** Defines for histogram.comp's RESOLVE pipeline. */
    public static Map<String, String> resolveDefines() {
        return Map.of(DEFINE_RESOLVE, "1");
    }

    /** Workgroups of histogram.comp's ACCUMULATE for a w x h image: {x, y}; z is 1. */
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

    /** histogram.comp's push constants at {@code dst}'s position (8 bytes, dst in native byte order). */
    public static ByteBuffer putHistogramPush(ByteBuffer dst, ExposureSettings s) {
        int at = dst.position();
        dst.putFloat(at, s.minEV());
        dst.putFloat(at + 4, s.binsPerEV());
        return dst;
    }

    /** exposure.comp's push constants at {@code dst}'s position (40 bytes, dst in native byte order). */
    public static ByteBuffer putExposurePush(ByteBuffer dst, ExposureSettings s, float dt, boolean reset) {
        int at = dst.position();
        dst.putFloat(at, dt);
        dst.putInt(at + 4, reset ? 1 : 0);
        dst.putFloat(at + 8, s.minEV());
        dst.putFloat(at + 12, s.evPerBin());
        dst.putFloat(at + 16, s.lowPercentile());
        dst.putFloat(at + 20, s.highPercentile());
        dst.putFloat(at + 24, s.log2MiddleGrey());
        dst.putFloat(at + 28, s.compensation());
        dst.putFloat(at + 32, s.brightenSpeed());
        dst.putFloat(at + 36, s.darkenSpeed());
        return dst;
    }
}

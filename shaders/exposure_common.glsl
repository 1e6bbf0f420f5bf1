// Shared by the auto-exposure chain: histogram.comp -> (engine reduction: total) ->
// normalize.comp -> exposure.comp -> tonemap.frag. Every formula here has a plain-Java twin in the
// tests' reference model (dev.tally.exposure.ExposureModel, test sources); keep the two in step
// (ExposureShadersCompileTest checks the constants below against ExposureShaderLayout).
//
// Formulas that the Java model mirrors operation for operation write their intermediates to `precise`
// variables, so no compiler may fuse a multiply and an add into an fma that Java would not do.

#ifndef EXPOSURE_COMMON_GLSL
#define EXPOSURE_COMMON_GLSL

// ---- Histogram -------------------------------------------------------------------------------------
// 256 bins. Bin 0: lum <= 0 or any NaN/Inf channel. Bins 1..255 split [minEV, maxEV) evenly; a
// positive lum below minEV goes to bin 1 and lum at or above maxEV (up to FLT_MAX: finite channels
// cannot overflow it) to bin 255. Clamping both ends keeps the metering continuous as a scene
// darkens past minEV: a pixel that leaves the range still counts, at the edge, instead of vanishing
// from the metered samples (which would make the mean of what is left jump up).
#define HISTOGRAM_BINS 256
#define HISTOGRAM_RANGE_BINS 255

// Metering weights are quantized to 1/256 steps: weight 1.0 adds 256 to a bin's fixed-point count.
#define WEIGHT_ONE 256u
#define WEIGHT_SCALE 256.0

// Centre-weighted metering never drops below this weight (corners still count a little).
#define CENTRE_WEIGHT_FLOOR 0.05

// Values of the METERING define of histogram.comp.
#define METERING_UNIFORM 0
#define METERING_CENTRE 1
#define METERING_MASK 2

// ---- Normalized histogram (normalize.comp output with count 256, exposure.comp input) --------------
// Floats 0..255: probability of each bin; float 256: 1.0 when the histogram is usable, 0.0 when the
// total weight was zero or not finite (then 0..255 are all zero). The filtered histogram that
// exposure.comp keeps as history has the same layout.
#define NORMALIZED_VALID 256
#define NORMALIZED_FLOATS 257

// ---- Exposure record (exposure.comp output; the next frame's history; tonemap.frag input) ---------
// 16 floats; integers (phase, clamp) are stored as exact small floats.
#define EXPOSURE_EV 0          // applied exposure in EV; the image is scaled by exp2(-ev)
#define EXPOSURE_MULTIPLIER 1  // exp2(-ev), what tone mapping multiplies HDR colour by
#define EXPOSURE_MEAN_LOG_LUM 2 // metered mean log2 luminance (of the last measured frame)
#define EXPOSURE_VALID 3       // 1: ev comes from a measurement or a fixed mode; 0: none since creation or reset
#define EXPOSURE_LOW_EV 4      // log2 luminance at the low percentile (last measured frame)
#define EXPOSURE_HIGH_EV 5     // log2 luminance at the high percentile (last measured frame)
#define EXPOSURE_TARGET_EV 6   // the target ev adaptation moves toward (last measured frame)
#define EXPOSURE_MEASURED 7    // 1: this frame's histogram was usable; 0: values carried from history
#define EXPOSURE_CLAMP_HIT 8   // -1: the target was raised to clampMinEV, +1: lowered to clampMaxEV, 0: neither
#define EXPOSURE_CURVE_EV 9    // the compensation curve's output (stops) at this frame's scene EV
#define EXPOSURE_PHASE 10      // PHASE_* below
#define EXPOSURE_SCENE_EV 11   // meanLogLum - log2(middleGrey): the curve's input, before compensation
#define EXPOSURE_FLOATS 16     // 12..15 are written as 0

// Phases: how this frame's ev was reached.
#define PHASE_SNAP 0           // set to the target: first frame, reset, manual and physical modes
#define PHASE_LINEAR 1         // adapting, farther than transitionEV from the target
#define PHASE_EXPONENTIAL 2    // adapting, within transitionEV of the target
#define PHASE_HOLDING 3        // held: the target is inside the dead band, or nothing was measured

// Modes (exposure.comp's mode push constant).
#define MODE_AUTO 0
#define MODE_MANUAL 1
#define MODE_PHYSICAL 2

// ---- Compensation curve table (exposure.comp binding 5) ---------------------------------------------
// [0] start EV, [1] samples per EV, [2] sample count (0: no curve, 1: constant), [3] 0, then samples.
#define CURVE_HEADER_FLOATS 4
#define CURVE_SAMPLES 64
#define CURVE_TABLE_FLOATS 68

// ---- Helpers ---------------------------------------------------------------------------------------

// NaN and Inf have an all-ones exponent. A bit test, because a driver may assume that no NaN reaches
// isnan() or isinf() and fold them away.
bool isFiniteBits(float v) {
    return (floatBitsToUint(v) & 0x7f800000u) != 0x7f800000u;
}

// Rec. 709 / sRGB primaries, relative luminance Y. Summed left to right, no fma: the Java model does
// (0.2126 r + 0.7152 g) + 0.0722 b with the same roundings.
float luminance709(vec3 c) {
    precise float red = 0.2126 * c.r;
    precise float green = 0.7152 * c.g;
    precise float blue = 0.0722 * c.b;
    precise float y = (red + green) + blue;
    return y;
}

// The histogram bin of one linear HDR colour. binsPerEV = 255 / (maxEV - minEV), computed on the CPU
// in single precision (ExposureSettings.binsPerEV()) so both sides use the same constant.
uint histogramBin(vec3 rgb, float minEV, float binsPerEV) {
    float lum = luminance709(rgb);
    // The weights are positive and sum to at most 1, so finite channels give a finite luminance (at most FLT_MAX,
    // which their largest values give exactly), and a NaN or infinite channel a NaN or infinite one: a luminance
    // that is finite and positive needs no test of the channels. Per pixel two compares, not three channel tests.
    if (!(lum > 0.0 && isFiniteBits(lum))) {
        return 0u;
    }
    precise float offsetEV = log2(lum) - minEV;
    precise float scaled = offsetEV * binsPerEV;   // 0 at minEV, 255 at maxEV
    // Below the range (also -Inf from a flushed log2) clamps to 0, the edge bin 1; the conversion truncates, which
    // for a value >= 0 is floor(): per pixel one clamp and one conversion, no compare and select, no rounding.
    return 1u + uint(clamp(scaled, 0.0, float(HISTOGRAM_RANGE_BINS - 1)));
}

// A metering weight in [0, 1] to fixed point: round(w * 256), so 1.0 -> 256 and 0.05 -> 13.
// NaN counts as 0; the weight is clamped first. w * 256 is exact, so the only rounding is the +0.5.
uint quantizeWeight(float w) {
    float clamped = isFiniteBits(w) ? clamp(w, 0.0, 1.0) : 0.0;
    precise float scaled = clamped * WEIGHT_SCALE + 0.5;
    return uint(scaled);
}

// Centre-weighted metering. u and v are the pixel centre's offset from the image centre, normalized
// per axis to (-1, 1); the falloff is therefore an ellipse inscribed in the frame:
//   w = max(0.05, 1 - (u^2 + v^2)),  u = (2x + 1 - W) / W,  v = (2y + 1 - H) / H.
// 1 at the centre, 0.05 on and outside the inscribed ellipse (the corners).
float centreWeight(ivec2 pixel, ivec2 size) {
    float u = float(2 * pixel.x + 1 - size.x) / float(size.x);
    float v = float(2 * pixel.y + 1 - size.y) / float(size.y);
    precise float uu = u * u;
    precise float vv = v * v;
    precise float r2 = uu + vv;
    precise float falloff = 1.0 - r2;
    return max(CENTRE_WEIGHT_FLOOR, falloff);
}

// The mask texel that meters `pixel`: nearest lookup of the pixel centre, in integers, so a mask of
// the image's size maps 1:1 and a smaller one is scaled without filtering:
//   m = floor((2p + 1) * maskSize / (2 * imageSize)).
ivec2 maskTexel(ivec2 pixel, ivec2 size, ivec2 maskSize) {
    uvec2 p = uvec2(pixel);
    uvec2 s = uvec2(size);
    uvec2 m = uvec2(maskSize);
    return ivec2(((2u * p + 1u) * m) / (2u * s));
}

// The EV (log2 luminance) at the centre of bin k (1..255). evPerBin = (maxEV - minEV) / 255, computed
// on the CPU in single precision (ExposureSettings.evPerBin()).
float binCentreEV(uint k, float minEV, float evPerBin) {
    precise float offset = (float(k) - 0.5) * evPerBin;
    precise float ev = minEV + offset;
    return ev;
}

// The EV at the lower edge of bin k (1..255).
float binLowerEV(uint k, float minEV, float evPerBin) {
    precise float offset = float(k - 1u) * evPerBin;
    precise float ev = minEV + offset;
    return ev;
}

#endif

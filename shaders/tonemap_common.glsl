// Tone mapping shared by tonemap.frag and tonemap.comp: ACES fit and sRGB encoding, per channel.
// Needs exposure_common.glsl (isFiniteBits) and the specialization constant ACES_INPUT_SCALE.
#ifndef TONEMAP_COMMON_GLSL
#define TONEMAP_COMMON_GLSL

#define TONEMAP_INPUT_MAX 65504.0

float acesFilmic(float x) {
    precise float numerator = x * (2.51 * x + 0.03);
    precise float denominator = x * (2.43 * x + 0.59) + 0.14;
    return clamp(numerator / denominator, 0.0, 1.0);
}

// 2^(5e/12) for e = -9 .. 0.
const float POW_5_12_OF_TWO_TO[10] = float[](0.074325445, 0.099212566, 0.132432887, 0.176776695, 0.235968578,
                                             0.314980262, 0.420448208, 0.561231024, 0.749153538, 1.0);

// x^(1/2.4) for x in [2^-9, 1] with no transcendental: x = m 2^e, m in [1, 2), e in [-9, 0]; m^(5/12) by a cubic
// (relative error under 9e-5), 2^(5e/12) from the table. pow's log2 and exp2 for each of three channels ran on the
// special-function units (a sixteenth of the arithmetic rate): on the H200 the 4K tonemap took 3.6 us longer with them.
float pow5over12(float x) {
    const uint bits = floatBitsToUint(x);
    const int e = int(bits >> 23u) - 127;
    const float m = uintBitsToFloat((bits & 0x007FFFFFu) | 0x3F800000u);
    const float p = fma(fma(fma(0.02444852, m, -0.17654365), m, 0.69333464), m, 0.45884319);
    return p * POW_5_12_OF_TWO_TO[clamp(e + 9, 0, 9)];
}

// IEC 61966-2-1 sRGB encoding of a linear value in [0, 1]: within 0.02 of an 8-bit step of the exact curve.
float srgbEncode(float linear) {
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow5over12(linear) - 0.055;
}

// The display-linear result for one HDR channel, as ExposureModel.tonemap computes it.
float tonemapChannel(float hdr, float multiplier) {
    precise float exposed = hdr * multiplier;
    precise float scaled = exposed * ACES_INPUT_SCALE;
    const float x = isFiniteBits(scaled) || scaled > 0.0 ? clamp(scaled, 0.0, TONEMAP_INPUT_MAX) : 0.0;
    return acesFilmic(x);
}

#endif

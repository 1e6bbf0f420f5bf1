// Tone mapping shared by tonemap.frag and tonemap.comp: ACES fit and sRGB encoding, per channel.
// Needs exposure_common.glsl (isFiniteBits) and the specialization constant ACES_INPUT_SCALE.
#ifndef TONEMAP_COMMON_GLSL
#define TONEMAP_COMMON_GLSL

#define TONEMAP_INPUT_MAX 65504.0

float acesFilmic(float x) {
    precise float numerator = x * (2.51 * x + 0.03);
    precise float denominator = x * (2.43 * x + 0.59) + 0.14;
    return clamp(numerator * (1.0 / denominator), 0.0, 1.0);
}

// IEC 61966-2-1 sRGB encoding of a linear value in [0, 1].
float srgbEncode(float linear) {
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
}

// The display-linear result for one HDR channel, as ExposureModel.tonemap computes it.
float tonemapChannel(float hdr, float multiplier) {
    precise float exposed = hdr * multiplier;
    precise float scaled = exposed * ACES_INPUT_SCALE;
    const float x = isFiniteBits(scaled) || scaled > 0.0 ? clamp(scaled, 0.0, TONEMAP_INPUT_MAX) : 0.0;
    return acesFilmic(x);
}

#endif

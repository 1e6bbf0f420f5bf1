#version 460
// Auto-exposure, step 4 (fragment): HDR colour x exposure multiplier -> ACES filmic curve -> display.
//
//   in location 0: vec2 uv (tonemap.vert).
//   set 0, binding 0: combined image sampler, the HDR colour (any float format), sampled at uv with
//                     LOD 0. When the target has the HDR image's size, uv hits texel centres, so a
//                     nearest or a linear sampler returns the texels unfiltered.
//   set 0, binding 1: storage buffer, readonly, fragment stage: the exposure record of exposure.comp
//                     (8 floats; this shader reads [1], the multiplier). Reading a storage buffer in
//                     a fragment shader needs no device feature (only writes would).
//   out location 0: vec4, rgb tone mapped and display encoded, alpha 1.
//   specialization constant 0: ENCODE_SRGB (bool, default false). Leave it false for an _SRGB target
//     format (the hardware applies the sRGB OETF on store); set it true for a _UNORM target, and the
//     shader applies the sRGB OETF itself. Either way the stored bytes are the same sRGB encoding.
//   specialization constant 1: ACES_INPUT_SCALE (float, default 1.0), multiplied into the colour before
//     the curve. The fit below is pre-exposed (1.0 maps to about 0.8); 0.6 gives the original ACES
//     RRT + ODT brightness.
//   no push constants.
//
// Tone curve: Krzysztof Narkowicz's 2016 rational fit of the ACES RRT + sRGB ODT, per channel:
//   f(x) = x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14), clamped to [0, 1].
// A NaN channel becomes 0; infinities and huge values are clamped to the half-float maximum first
// (f tends to 2.51 / 2.43 > 1 there, so the result is 1).

#include "exposure_common.glsl"

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D hdrTexture;
layout(std430, set = 0, binding = 1) readonly restrict buffer Exposure { float value[EXPOSURE_FLOATS]; } exposure;

layout(constant_id = 0) const bool ENCODE_SRGB = false;
layout(constant_id = 1) const float ACES_INPUT_SCALE = 1.0;

#include "tonemap_common.glsl"

void main() {
    const vec3 hdr = textureLod(hdrTexture, inUV, 0.0).rgb;
    const float multiplier = exposure.value[EXPOSURE_MULTIPLIER];
    vec3 display = vec3(tonemapChannel(hdr.r, multiplier),
                        tonemapChannel(hdr.g, multiplier),
                        tonemapChannel(hdr.b, multiplier));
    if (ENCODE_SRGB) {
        display = vec3(srgbEncode(display.r), srgbEncode(display.g), srgbEncode(display.b));
    }
    outColor = vec4(display, 1.0);
}

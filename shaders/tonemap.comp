#version 460
// Auto-exposure, step 4 (compute): the same tone mapping as tonemap.frag, written to a storage image.
// One invocation per target pixel; the HDR colour is sampled at the pixel centre's uv exactly as the
// fullscreen triangle's fragment would be, so both paths store the same values.
//
//   set 0, binding 0: combined image sampler, the HDR colour (any float format), LOD 0.
//   set 0, binding 1: storage buffer, readonly: the exposure record (this shader reads [1]).
//   set 0, binding 2: storage image, writeonly, format TARGET_FORMAT (default rgba8; rgba16f,
//                     rgb10_a2 also), layout GENERAL: the display image.
//   dispatch ceil(W / 16) x ceil(H / 16) groups of 16 x 16.
//   specialization constants 0 (ENCODE_SRGB) and 1 (ACES_INPUT_SCALE): as tonemap.frag.
//   no push constants.

#include "exposure_common.glsl"

#ifndef TARGET_FORMAT
#define TARGET_FORMAT rgba8
#endif

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0) uniform sampler2D hdrTexture;
layout(std430, set = 0, binding = 1) readonly restrict buffer Exposure { float value[EXPOSURE_FLOATS]; } exposure;
layout(set = 0, binding = 2, TARGET_FORMAT) writeonly uniform image2D target;

layout(constant_id = 0) const bool ENCODE_SRGB = false;
layout(constant_id = 1) const float ACES_INPUT_SCALE = 1.0;

#include "tonemap_common.glsl"

void main() {
    const ivec2 size = imageSize(target);
    const ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    const vec2 uv = (vec2(pixel) + 0.5) / vec2(size);
    const vec3 hdr = textureLod(hdrTexture, uv, 0.0).rgb;
    const float multiplier = exposure.value[EXPOSURE_MULTIPLIER];
    vec3 display = vec3(tonemapChannel(hdr.r, multiplier),
                        tonemapChannel(hdr.g, multiplier),
                        tonemapChannel(hdr.b, multiplier));
    if (ENCODE_SRGB) {
        display = vec3(srgbEncode(display.r), srgbEncode(display.g), srgbEncode(display.b));
    }
    imageStore(target, pixel, vec4(display, 1.0));
}

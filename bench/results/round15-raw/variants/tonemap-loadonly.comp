#version 460
// Auto-exposure, step 4 (compute): the same tone mapping as tonemap.frag, written to a storage image.
// Each invocation writes ROWS_PER_INVOCATION pixels of one column, 16 rows apart, and loads all of them
// before it converts any (more bytes in flight per invocation: the pass is a read and a write of the
// image, nothing else). The HDR colour is the texel under the pixel centre (texelFetch) when the two
// images have the same size, else sampled at the pixel centre's uv; either way exactly what the
// fullscreen triangle's fragment reads, so both paths store the same values.
//
//   set 0, binding 0: combined image sampler, the HDR colour (any float format), LOD 0.
//   set 0, binding 1: storage buffer, readonly: the exposure record (this shader reads [1]).
//   set 0, binding 2: storage image, writeonly, format TARGET_FORMAT (default rgba8; rgba16f,
//                     rgb10_a2 also), layout GENERAL: the display image.
//   define ROWS_PER_INVOCATION: 1, 2, 4 or 8 (default 4).
//   dispatch ceil(W / 16) x ceil(H / (16 * ROWS_PER_INVOCATION)) groups of 16 x 16.
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

#ifndef ROWS_PER_INVOCATION
#define ROWS_PER_INVOCATION 4
#endif
#if ROWS_PER_INVOCATION != 1 && ROWS_PER_INVOCATION != 2 && ROWS_PER_INVOCATION != 4 && ROWS_PER_INVOCATION != 8
#error "ROWS_PER_INVOCATION must be 1, 2, 4 or 8"
#endif

#include "tonemap_common.glsl"

vec3 fetchHdr(ivec2 pixel, ivec2 size, bool sameSize) {
    if (sameSize) {
        return texelFetch(hdrTexture, min(pixel, size - 1), 0).rgb;
    }
    const vec2 uv = (vec2(pixel) + 0.5) / vec2(size);
    return textureLod(hdrTexture, uv, 0.0).rgb;
}

void storeDisplay(ivec2 pixel, ivec2 size, vec3 hdr, float multiplier) {
    if (pixel.y >= size.y) {
        return;
    }
    vec3 display = vec3(tonemapChannel(hdr.r, multiplier),
                        tonemapChannel(hdr.g, multiplier),
                        tonemapChannel(hdr.b, multiplier));
    if (ENCODE_SRGB) {
        display = vec3(srgbEncode(display.r), srgbEncode(display.g), srgbEncode(display.b));
    }
    if (display.r == 0.123456) {   // timing experiment: loads and the curve, no store
        imageStore(target, pixel, vec4(display, 1.0));
    }
}

void main() {
    const ivec2 size = imageSize(target);
    const bool sameSize = textureSize(hdrTexture, 0) == size;
    // Each subgroup of 32 takes an 8 x 4 block of the 16 x 16 tile (rather than 16 x 2): fewer memory
    // tiles touched per load instruction (measured 1-3 % faster on the H200). Any subgroup size gives a
    // correct permutation of the tile; only the speed argument assumes 32.
    const uint warpIndex = gl_LocalInvocationIndex / 32u;
    const uint laneIndex = gl_LocalInvocationIndex % 32u;
    const uvec2 lid = uvec2((warpIndex % 2u) * 8u + laneIndex % 8u, (warpIndex / 2u) * 4u + laneIndex / 8u);
    const int x = int(gl_WorkGroupID.x * gl_WorkGroupSize.x + lid.x);
    const int top = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * ROWS_PER_INVOCATION + lid.y);
    if (x >= size.x || top >= size.y) {
        return;
    }
    const int step = int(gl_WorkGroupSize.y);
    const float multiplier = exposure.value[EXPOSURE_MULTIPLIER];
#define PIXEL_OF(k) ivec2(x, top + (k) * step)
#define LOAD_ROW(k) const vec3 hdr##k = fetchHdr(PIXEL_OF(k), size, sameSize)
#define STORE_ROW(k) storeDisplay(PIXEL_OF(k), size, hdr##k, multiplier)
    LOAD_ROW(0);
#if ROWS_PER_INVOCATION >= 2
    LOAD_ROW(1);
#endif
#if ROWS_PER_INVOCATION >= 4
    LOAD_ROW(2);
    LOAD_ROW(3);
#endif
#if ROWS_PER_INVOCATION >= 8
    LOAD_ROW(4);
    LOAD_ROW(5);
    LOAD_ROW(6);
    LOAD_ROW(7);
#endif
    STORE_ROW(0);
#if ROWS_PER_INVOCATION >= 2
    STORE_ROW(1);
#endif
#if ROWS_PER_INVOCATION >= 4
    STORE_ROW(2);
    STORE_ROW(3);
#endif
#if ROWS_PER_INVOCATION >= 8
    STORE_ROW(4);
    STORE_ROW(5);
    STORE_ROW(6);
    STORE_ROW(7);
#endif
}

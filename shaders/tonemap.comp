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
//
// define HUD (the "tonemap+hud" pass): the HUD composited before the single store, so the display image
// is written once. Workgroups whose pixels meet the HUD's tiles (the Scene block's boxes) take the HUD's
// layout instead (hudWorkgroup: each subgroup as in hud.comp, HUD_ROWS rows of one column per invocation,
// ROWS_PER_INVOCATION / HUD_ROWS rounds over the workgroup's tiles); each pixel is tone mapped as above,
// rounded to the byte the target would store (what hud.comp would load), the HUD blended over it, and
// stored: the blended value where a shape covers it, else the tone mapped value as the plain pass stores
// it. The bytes equal tonemap then hud.comp wherever the target's store rounds to nearest even (RGBA8 only).
//   set 0, bindings 3-7: storage buffers: the font atlas, the glyph instances, the normalized histogram,
//                        the plot ring, the Scene block (hud_common.glsl, hud_composite.glsl); the HUD
//                        reads the exposure record through binding 1.
//   define HUD_ROWS: 1, 2 (default), 4 or 8, at most ROWS_PER_INVOCATION.
#ifdef HUD
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

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

vec3 tonemapPixel(vec3 hdr, float multiplier) {
    vec3 display = vec3(tonemapChannel(hdr.r, multiplier),
                        tonemapChannel(hdr.g, multiplier),
                        tonemapChannel(hdr.b, multiplier));
    if (ENCODE_SRGB) {
        display = vec3(srgbEncode(display.r), srgbEncode(display.g), srgbEncode(display.b));
    }
    return display;
}

void storeDisplay(ivec2 pixel, ivec2 size, vec3 hdr, float multiplier) {
    if (pixel.y >= size.y) {
        return;
    }
    imageStore(target, pixel, vec4(tonemapPixel(hdr, multiplier), 1.0));
}

#ifdef HUD
#define HUD_BINDING_ATLAS 3
#define HUD_BINDING_TEXT 4
#define HUD_BINDING_HISTOGRAM 5
#define HUD_BINDING_PLOT 6
#define HUD_BINDING_SCENE 7
#define HUD_EXPOSURE(i) exposure.value[i]
#ifndef RECORD_LOW_EV
#define RECORD_LOW_EV EXPOSURE_LOW_EV
#define RECORD_HIGH_EV EXPOSURE_HIGH_EV
#endif
#ifndef HUD_ROWS
#define HUD_ROWS 2
#endif
#if HUD_ROWS > ROWS_PER_INVOCATION || (HUD_ROWS != 1 && HUD_ROWS != 2 && HUD_ROWS != 4 && HUD_ROWS != 8)
#error "HUD_ROWS must be 1, 2, 4 or 8 and at most ROWS_PER_INVOCATION"
#endif
#include "hud_common.glsl"
#include "hud_composite.glsl"

// True when the workgroup's tiles (one column of ROWS_PER_INVOCATION tiles) meet a box of the HUD.
bool meetsHud() {
    const ivec4 tiles = ivec4(gl_WorkGroupID.x, gl_WorkGroupID.y * ROWS_PER_INVOCATION,
                              gl_WorkGroupID.x + 1u, (gl_WorkGroupID.y + 1u) * ROWS_PER_INVOCATION);
    return overlaps(scene.boxes[0], tiles) || overlaps(scene.boxes[1], tiles) || overlaps(scene.boxes[2], tiles);
}

// The workgroup's pixels in the HUD's layout: per round, HUD_ROWS tiles of 16 x 16, each taken by
// 256 / HUD_ROWS invocations going down its columns as hud.comp's do. Control flow stays uniform (no
// early return): compositeHud needs whole subgroups; pixels past the edges are masked instead.
void hudWorkgroup(ivec2 size, bool sameSize, float multiplier) {
    const uint perTile = TILE * TILE / HUD_ROWS;
    const uint perColumn = TILE / HUD_ROWS;
    const uint local = gl_LocalInvocationIndex % perTile;
    for (uint r = 0u; r < ROWS_PER_INVOCATION / HUD_ROWS; r++) {
        const ivec2 tile = ivec2(gl_WorkGroupID.x, gl_WorkGroupID.y * ROWS_PER_INVOCATION + r * HUD_ROWS + gl_LocalInvocationIndex / perTile);
        const ivec2 top = tile * int(TILE) + ivec2(local / perColumn, (local % perColumn) * HUD_ROWS);
        vec3 display[HUD_ROWS];
        vec4 color[HUD_ROWS];
        for (int p = 0; p < HUD_ROWS; p++) {
            const ivec2 px = top + ivec2(0, p);
            display[p] = all(lessThan(px, size)) ? tonemapPixel(fetchHdr(px, size, sameSize), multiplier) : vec3(0);
            // The byte the target stores (round to nearest even, as an RGBA8 store rounds), as the float hud.comp blends over.
            precise vec3 stored = roundEven(clamp(display[p], 0.0, 1.0) * 255.0) / 255.0;
            color[p] = eightBits(vec4(stored, 1.0));
        }
        uint touched = 0u;
        compositeHud(top, size, color, touched);
        for (int p = 0; p < HUD_ROWS; p++) {
            const ivec2 px = top + ivec2(0, p);
            if (all(lessThan(px, size))) {
                imageStore(target, px, (touched & (1u << p)) != 0u ? color[p] : vec4(display[p], 1.0));
            }
        }
    }
}
#endif

void main() {
    const ivec2 size = imageSize(target);
    const bool sameSize = textureSize(hdrTexture, 0) == size;
#ifdef HUD
    if (meetsHud()) {   // uniform across the workgroup
        hudWorkgroup(size, sameSize, exposure.value[EXPOSURE_MULTIPLIER]);
        return;
    }
#endif
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

#version 460
// The HUD composited in compute: the same shapes as hud.vert/hud.frag (hud_common.glsl), blended over
// the target in the same order with the same blend (src alpha, one minus src alpha; alpha: one, one
// minus src alpha), each layer rounded to the target's 8 bits as a colour attachment stores it. Only
// the tiles under the HUD's panels run: everything else is left untouched.
//
//   bindings 0-4: as hud_common.glsl (atlas, glyph instances, normalized histogram, exposure record, plot ring)
//   set 0, binding 5: storage buffer, the frame's scene (below): tile boxes, plot and histogram
//                     parameters, the draw list (ranges, in draw order) and the solid rectangles.
//   set 0, binding 6: storage image rgba8, layout GENERAL: the target, read and written.
//   dispatch scene.groups.x x scene.groups.y groups of 16 x 16 (one 16 x 16 tile each); no push constants.
//
// Each workgroup walks the draw list in chunks of 256 shapes: every invocation tests one shape's bounds
// against the tile, the hits are packed in draw order into shared memory (subgroup ballots, then one
// offset per subgroup), and every pixel blends the packed shapes that cover it, in order.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

#include "hud_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

const uint KIND_RECTS = 0u, KIND_HISTOGRAM = 1u, KIND_PLOT = 2u, KIND_GLYPHS = 3u;
const uint MAX_RANGES = 64u, MAX_RECTS = 32u, BOXES = 3u, GROUP = 256u;

struct Range {
    uint kind;
    uint first;
    uint count;
    uint unused;
    ivec4 bounds;      // pixels any of its shapes may cover
};

struct SolidRect {
    ivec4 bounds;
    uvec4 rgba;        // x: 8 bits per channel, red in the low byte
};

layout(std430, set = 0, binding = 5) readonly buffer Scene {
    ivec4 boxes[BOXES];   // tile rectangles [x0, y0, x1, y1) to run, in 16-pixel tiles; later boxes skip earlier ones' tiles
    uvec4 boxEnds;        // x, y, z: groups up to the end of each box; w: range count
    uvec4 groups;         // x: groups per dispatch row; y: rows; z: target width; w: target height
    vec4 histArea;
    vec4 plotArea;
    vec4 histParams;      // minEV, binsPerEV, atlas width (as float bits), unused
    vec4 plotParams;      // now, span, evLow, evHigh
    vec4 lineParams;      // line width
    Range ranges[MAX_RANGES];
    SolidRect rects[MAX_RECTS];
} scene;

layout(set = 0, binding = 6, rgba8) uniform restrict image2D target;

shared ivec4 sBounds[GROUP];
shared vec4 sTint[GROUP];
shared vec4 sData[GROUP];      // plot: end points; glyphs: instance index (as float bits)
shared uint sCounts[GROUP];    // hits per subgroup

bool overlaps(ivec4 a, ivec4 b) {
    return a.x < a.z && a.y < a.w && a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
}

vec4 blendLayer(vec4 dst, vec4 src) {
    vec4 outc = vec4(src.rgb * src.a + dst.rgb * (1.0 - src.a), src.a + dst.a * (1.0 - src.a));
    return floor(clamp(outc, 0.0, 1.0) * 255.0 + 0.5) / 255.0;   // the 8-bit store between draws
}

void main() {
    uint group = gl_WorkGroupID.y * scene.groups.x + gl_WorkGroupID.x;
    if (group >= scene.boxEnds.z) {
        return;
    }
    uint box = group < scene.boxEnds.x ? 0u : group < scene.boxEnds.y ? 1u : 2u;
    uint boxStart = box == 0u ? 0u : box == 1u ? scene.boxEnds.x : scene.boxEnds.y;
    ivec4 b = scene.boxes[box];
    uint local = group - boxStart;
    uint boxW = uint(b.z - b.x);
    ivec2 tile = b.xy + ivec2(local % boxW, local / boxW);
    for (uint j = 0u; j < box; j++) {
        ivec4 e = scene.boxes[j];
        if (all(greaterThanEqual(tile, e.xy)) && all(lessThan(tile, e.zw))) {
            return;   // an earlier box's group owns this tile (uniform across the workgroup)
        }
    }
    ivec2 size = ivec2(scene.groups.zw);
    ivec4 tileBounds = ivec4(tile * 16, min(tile * 16 + 16, size));
    ivec2 pixel = tile * 16 + ivec2(gl_LocalInvocationID.xy);
    bool inside = all(lessThan(pixel, size));
    vec4 color = inside ? imageLoad(target, pixel) : vec4(0);
    vec2 centre = vec2(pixel) + 0.5;
    uint atlasWidth = floatBitsToUint(scene.histParams.z);
    PlotFrame pf = PlotFrame(scene.plotArea, scene.plotParams.x, scene.plotParams.y, scene.plotParams.z, scene.plotParams.w,
            scene.lineParams.x);
    // Shape order inside a chunk: subgroup by subgroup, lane by lane (independent of how invocations map to subgroups).
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;

    for (uint r = 0u; r < scene.boxEnds.w; r++) {
        Range range = scene.ranges[r];
        if (!overlaps(range.bounds, tileBounds)) {
            continue;
        }
        for (uint base = 0u; base < range.count; base += GROUP) {
            uint i = base + lane;
            bool hit = false;
            ivec4 q = ivec4(0);
            vec4 tint = vec4(0), data = vec4(0);
            if (i < range.count) {
                uint s = range.first + i;
                if (range.kind == KIND_RECTS) {
                    q = scene.rects[s].bounds;
                    tint = unpackColor(scene.rects[s].rgba.x);
                } else if (range.kind == KIND_HISTOGRAM) {
                    q = histogramQuad(s, scene.histArea, scene.histParams.x, scene.histParams.y);
                    tint = histogramTint(s);
                } else if (range.kind == KIND_PLOT) {
                    vec2 p0, p1;
                    if (plotSegment(pf, s, p0, p1)) {
                        q = segmentBounds(p0, p1, pf.lineWidth);
                        data = vec4(p0, p1);
                    }
                    tint = plotTint(s);
                } else {
                    q = glyphBounds(s);
                    tint = unpackColor(text.glyphs[s].rgba);
                    data.x = uintBitsToFloat(s);
                }
                hit = overlaps(q, tileBounds);
            }
            uvec4 ballot = subgroupBallot(hit);
            if (subgroupElect()) {
                sCounts[gl_SubgroupID] = subgroupBallotBitCount(ballot);
            }
            barrier();
            uint offset = 0u, total = 0u;
            for (uint sg = 0u; sg < gl_NumSubgroups; sg++) {
                uint n = sCounts[sg];
                offset += sg < gl_SubgroupID ? n : 0u;
                total += n;
            }
            if (hit) {
                uint at = offset + subgroupBallotExclusiveBitCount(ballot);
                sBounds[at] = q;
                sTint[at] = tint;
                sData[at] = data;
            }
            barrier();
            if (inside) {
                for (uint k = 0u; k < total; k++) {
                    ivec4 sb = sBounds[k];
                    if (pixel.x < sb.x || pixel.x >= sb.z || pixel.y < sb.y || pixel.y >= sb.w) {
                        continue;
                    }
                    vec4 t = sTint[k];
                    if (range.kind == KIND_GLYPHS) {
                        float coverage = glyphCoverage(floatBitsToUint(sData[k].x), pixel, atlasWidth);
                        if (coverage == 0.0) {
                            continue;
                        }
                        t.a *= coverage;
                    } else if (range.kind == KIND_PLOT && !segmentCovers(centre, sData[k].xy, sData[k].zw, pf.lineWidth)) {
                        continue;
                    }
                    color = blendLayer(color, t);
                }
            }
            barrier();   // the shared list is refilled by the next chunk
        }
    }
    if (inside) {
        imageStore(target, pixel, color);
    }
}

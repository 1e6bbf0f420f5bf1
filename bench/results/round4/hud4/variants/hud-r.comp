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
//   dispatch scene.groups.x x scene.groups.y groups, one 16 x 16 tile each; no push constants.
//
// Every subgroup works alone (no shared memory, no barriers): an invocation holds ROWS pixels of one
// column, and the subgroup culls the draw list against the rectangle its pixels span, in chunks of one
// shape per invocation; a ballot gives the hits and the subgroup walks them in draw order, each hit's
// bounds passed round by shuffles, every pixel blending the hits that cover it. Ranges are narrowed
// first to the shapes that can reach the subgroup's rectangle: histogram bars from its x extent, plot
// segments by a search of the ring's times (they never decrease: hud_plot.comp empties the ring when
// time goes back, so x grows with the entry index). Skipped shapes are ones the bounds test rejects.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "hud_common.glsl"

#ifndef ROWS
#define ROWS 2   // pixel rows per invocation: 1, 2, 4, 8 or 16
#endif
const uint TILE = 16u;
layout(local_size_x = 16, local_size_y = 16 / ROWS) in;

const uint KIND_RECTS = 0u, KIND_HISTOGRAM = 1u, KIND_PLOT = 2u, KIND_GLYPHS = 3u;
const uint MAX_RANGES = 64u, MAX_RECTS = 32u, BOXES = 3u;

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

bool overlaps(ivec4 a, ivec4 b) {
    return a.x < a.z && a.y < a.w && a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
}

vec4 blendLayer(vec4 dst, vec4 src) {
    vec4 outc = vec4(src.rgb * src.a + dst.rgb * (1.0 - src.a), src.a + dst.a * (1.0 - src.a));
    return floor(clamp(outc, 0.0, 1.0) * 255.0 + 0.5) / 255.0;   // the 8-bit store between draws
}

float plotX(PlotFrame pf, float time) {
    return pf.area.x + pf.area.z * (1.0 - (pf.now - time) / pf.span);
}

// How many of the ring's `entries` (oldest first) lie left of `limit` (x < limit, or x <= limit when
// `inclusive`). x grows with the index, so those are a prefix: a search with one probe per invocation,
// narrowing by the subgroup's size each round (two rounds for the whole ring at 32 invocations).
uint entriesLeftOf(PlotFrame pf, uint oldest, uint entries, float limit, bool inclusive) {
    uint lo = 0u, len = entries;   // the answer lies in [lo, lo + len]
    while (len > 0u) {
        uint step = (len + gl_SubgroupSize - 1u) / gl_SubgroupSize;
        uint probe = lo + (gl_SubgroupInvocationID + 1u) * step - 1u;
        bool left = false;
        if (probe < lo + len) {
            float x = plotX(pf, plot.entries[(oldest + probe) % plot.capacity].time);
            left = inclusive ? x <= limit : x < limit;
        }
        uint c = subgroupBallotBitCount(subgroupBallot(left));
        uint end = lo + len;
        lo += c * step;
        len = min(step - 1u, end - lo);
    }
    return lo;
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
    ivec4 tileBounds = ivec4(tile * int(TILE), min(tile * int(TILE) + int(TILE), size));
    // This invocation's pixels: one column, ROWS rows down from `top`.
    ivec2 top = tile * int(TILE) + ivec2(gl_LocalInvocationID.x, gl_LocalInvocationID.y * ROWS);
    vec4 color[ROWS];
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        color[p] = all(lessThan(px, size)) ? imageLoad(target, px) : vec4(0);
    }
    // The rectangle the subgroup's pixels span, within the target: what its shapes are culled against.
    ivec4 sgBounds = ivec4(subgroupMin(top.x), subgroupMin(top.y), subgroupMax(top.x) + 1, subgroupMax(top.y) + ROWS);
    sgBounds = ivec4(max(sgBounds.xy, tileBounds.xy), min(sgBounds.zw, tileBounds.zw));
    uint atlasWidth = floatBitsToUint(scene.histParams.z);
    PlotFrame pf = PlotFrame(scene.plotArea, scene.plotParams.x, scene.plotParams.y, scene.plotParams.z, scene.plotParams.w,
            scene.lineParams.x);
    uint lane = gl_SubgroupInvocationID;

    for (uint r = 0u; r < scene.boxEnds.w; r++) {
        Range range = scene.ranges[r];
        if (!overlaps(range.bounds, sgBounds)) {
            continue;
        }
        // The shapes of this range that can reach the subgroup: [first, first + n), then for the histogram
        // the two markers (256, 257), for the plot the same entries of the second series.
        uint first = range.first, n = range.count, count = range.count, second = 0u;
        if (range.kind == KIND_HISTOGRAM) {
            float barW = scene.histArea.z / 256.0;
            int qa = max(0, int(floor((float(sgBounds.x) - 2.0 - scene.histArea.x) / barW)) - 1);
            int qb = min(255, int(ceil((float(sgBounds.z) + 2.0 - scene.histArea.x) / barW)) + 1);
            first = uint(qa);
            n = qb >= qa ? uint(qb - qa + 1) : 0u;
            count = n + 2u;
            second = 256u;
        } else if (range.kind == KIND_PLOT) {
            uint entries = min(plot.count, plot.capacity);
            uint oldest = (plot.head + plot.capacity - plot.count) % plot.capacity;
            float margin = 0.5 * pf.lineWidth + 2.0;
            // First entry at or right of the left edge (less the margin), last one at or left of the right edge (plus it).
            uint firstIn = entriesLeftOf(pf, oldest, entries, float(sgBounds.x) - margin, false);
            uint lastIn = entriesLeftOf(pf, oldest, entries, float(sgBounds.z) + margin, true);
            uint k0 = firstIn == entries ? entries : (firstIn > 0u ? firstIn - 1u : 0u);
            uint k1 = entries >= 2u ? min(lastIn > 0u ? lastIn - 1u : 0u, entries - 2u) : 0u;
            first = k0;
            n = entries >= 2u && k1 >= k0 ? k1 - k0 + 1u : 0u;
            count = 2u * n;
            second = plot.capacity - 1u + k0;
        }
        for (uint base = 0u; base < count; base += gl_SubgroupSize) {
            uint i = base + lane;
            bool hit = false;
            ivec4 q = ivec4(0);
            uint s = 0u;
            vec4 ends = vec4(0);   // plot: the segment's end points
            if (i < count) {
                s = i < n ? first + i : second + (i - n);
                if (range.kind == KIND_RECTS) {
                    q = scene.rects[s].bounds;
                } else if (range.kind == KIND_HISTOGRAM) {
                    q = histogramQuad(s, scene.histArea, scene.histParams.x, scene.histParams.y);
                } else if (range.kind == KIND_PLOT) {
                    vec2 p0, p1;
                    if (plotSegment(pf, s, p0, p1)) {
                        q = segmentBounds(p0, p1, pf.lineWidth);
                        ends = vec4(p0, p1);
                    }
                } else {
                    q = glyphBounds(s);
                }
                hit = overlaps(q, sgBounds);
            }
            uvec4 ballot = subgroupBallot(hit);
            for (uint w = 0u; w < (gl_SubgroupSize + 31u) / 32u; w++) {
                uint bits = ballot[w];
                while (bits != 0u) {
                    uint from = 32u * w + uint(findLSB(bits));
                    bits &= bits - 1u;
                    // Hit `from` of this chunk, in draw order: every invocation gets its shape.
                    ivec4 sb = subgroupShuffle(q, from);
                    uint ss = subgroupShuffle(s, from);
                    vec4 t;
                    GlyphInstance g;
                    vec4 se = vec4(0);
                    if (range.kind == KIND_RECTS) {
                        t = unpackColor(scene.rects[ss].rgba.x);
                    } else if (range.kind == KIND_HISTOGRAM) {
                        t = histogramTint(ss);
                    } else if (range.kind == KIND_PLOT) {
                        t = plotTint(ss);
                        se = subgroupShuffle(ends, from);
                    } else {
                        g = text.glyphs[ss];
                        t = unpackColor(g.rgba);
                    }
                    for (int p = 0; p < ROWS; p++) {
                        ivec2 px = top + ivec2(0, p);
                        if (px.x < sb.x || px.x >= sb.z || px.y < sb.y || px.y >= sb.w) {
                            continue;
                        }
                        vec4 tp = t;
                        if (range.kind == KIND_GLYPHS) {
                            float coverage = glyphCoverageOf(g, px, atlasWidth);
                            if (coverage == 0.0) {
                                continue;
                            }
                            tp.a *= coverage;
                        } else if (range.kind == KIND_PLOT && !segmentCovers(vec2(px) + 0.5, se.xy, se.zw, pf.lineWidth)) {
                            continue;
                        }
                        color[p] = blendLayer(color[p], tp);
                    }
                }
            }
        }
    }
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        if (all(lessThan(px, size))) {
            imageStore(target, px, color[p]);
        }
    }
}

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
// column, consecutive invocations go down the tile's columns (a subgroup of 32 spans 8 x 16 pixels at
// ROWS 4: the plot's and the bars' x-dense shapes give it fewer hits than a 16 x 8 strip), and the
// subgroup culls against the rectangle its pixels span. First every range's bounds at once (one range
// per invocation, a ballot), then, range by range in draw order, two shapes per
// invocation a round (both fetched before either is culled); a ballot gives the hits and the subgroup
// walks them in draw order (a loop of its own for each kind), each hit passed round by shuffles, every
// pixel blending the hits that cover it. Groups take the tiles from the last box back to the first.
// Ranges are narrowed first to the shapes that can reach the subgroup's rectangle: histogram bars from
// its x extent, plot segments by a search of the ring's times (they never decrease:
// hud_plot.comp empties the ring when time goes back, so x grows with the entry index). Skipped
// shapes are ones the bounds test rejects. Needs subgroup ballot, shuffle and arithmetic in compute
// (HudOverlay.usesCompute checks).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "hud_common.glsl"

// Pixel rows per invocation (1, 2, 4, 8 or 16 fit the tile). H200 4K, with a hit loop per kind: 1 / 2 / 4 rows
// 37.2 / 24.0 / 21.3 us in the bench, 35.8 / 24.6 / 22.7 us in the demo (2 was best with one loop for every kind).
#define ROWS 4
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

layout(set = 0, binding = 6, r32ui) uniform restrict uimage2D target;   // timing experiment: raw 32-bit texels of the rgba8 image

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

// The plot's entries (oldest first) that can reach [left, right] in x: `firstIn` entries lie left of
// `left` (x < left), `lastIn` at or left of `right` (x <= right). x grows with the index, so each is a
// prefix: two searches side by side, one probe each per invocation, narrowing by the subgroup's size
// every round (two rounds for the whole ring at 32 invocations).
void plotWindow(PlotFrame pf, uint oldest, uint entries, float left, float right, out uint firstIn, out uint lastIn) {
    uint lo0 = 0u, len0 = entries, lo1 = 0u, len1 = entries;   // answers in [lo, lo + len]
    while (len0 > 0u || len1 > 0u) {
        uint step0 = (len0 + gl_SubgroupSize - 1u) / gl_SubgroupSize;
        uint step1 = (len1 + gl_SubgroupSize - 1u) / gl_SubgroupSize;
        uint probe0 = lo0 + (gl_SubgroupInvocationID + 1u) * step0 - 1u;
        uint probe1 = lo1 + (gl_SubgroupInvocationID + 1u) * step1 - 1u;
        bool in0 = len0 > 0u && probe0 < lo0 + len0;
        bool in1 = len1 > 0u && probe1 < lo1 + len1;
        float t0 = plot.entries[(oldest + (in0 ? probe0 : 0u)) % PLOT_CAPACITY].time;
        float t1 = plot.entries[(oldest + (in1 ? probe1 : 0u)) % PLOT_CAPACITY].time;
        uint c0 = subgroupBallotBitCount(subgroupBallot(in0 && plotX(pf, t0) < left));
        uint c1 = subgroupBallotBitCount(subgroupBallot(in1 && plotX(pf, t1) <= right));
        uint end0 = lo0 + len0, end1 = lo1 + len1;
        lo0 += c0 * step0;
        lo1 += c1 * step1;
        len0 = len0 > 0u ? min(step0 - 1u, end0 - lo0) : 0u;
        len1 = len1 > 0u ? min(step1 - 1u, end1 - lo1) : 0u;
    }
    firstIn = lo0;
    lastIn = lo1;
}

// One shape as the invocation that culled it holds it: bounds, index, and what drawing it needs
// (rectangle: colour bits; glyph: atlas origin and colour bits; plot: the segment's end points).
struct Shape {
    ivec4 q;
    uint s;
    vec4 d;
};

// Shape `s` of a range of `kind`; false when it covers nothing.
bool fetchShape(uint kind, uint s, PlotFrame pf, out Shape sh) {
    sh.s = s;
    sh.q = ivec4(0);
    sh.d = vec4(0);
    if (kind == KIND_RECTS) {
        sh.q = scene.rects[s].bounds;
        sh.d.x = uintBitsToFloat(scene.rects[s].rgba.x);
    } else if (kind == KIND_HISTOGRAM) {
        sh.q = histogramQuad(s, scene.histArea, scene.histParams.x, scene.histParams.y);
    } else if (kind == KIND_PLOT) {
        vec2 p0, p1;
        if (!plotSegment(pf, s, p0, p1)) {
            return false;
        }
        sh.q = segmentBounds(p0, p1, pf.lineWidth);
        sh.d = vec4(p0, p1);
    } else {
        GlyphInstance g = text.glyphs[s];
        ivec2 o = ivec2(g.x, g.y);
        sh.q = ivec4(o, o + ivec2(g.size & 0xffffu, g.size >> 16));   // glyphBounds
        sh.d.xy = uintBitsToFloat(uvec2(g.atlas, g.rgba));
    }
    return true;
}

// Blends the subgroup's hits (`ballot`, one shape per invocation in `sh`) over this invocation's
// pixels, in invocation order (the draw order).
void blendHits(uvec4 ballot, Shape sh, uint kind, ivec2 top, PlotFrame pf, uint atlasWidth, inout vec4 color[ROWS]) {
    for (uint w = 0u; w < (gl_SubgroupSize + 31u) / 32u; w++) {
        uint bits = ballot[w];
        while (bits != 0u) {
            uint from = 32u * w + uint(findLSB(bits));
            bits &= bits - 1u;
            // Only what this kind reads goes round (main() calls this with the kind as a constant, so each copy keeps its
            // own): a rectangle's colour is one float, a glyph's atlas origin and colour two, and a plot segment needs no
            // bounds, since every pixel its coverage test accepts lies within them (H200 4K demo, with the copies per kind:
            // HUD 32.1 -> 27.4 us).
            ivec4 sb = kind == KIND_PLOT ? ivec4(0) : subgroupShuffle(sh.q, from);
            uint ss = kind == KIND_HISTOGRAM || kind == KIND_PLOT ? subgroupShuffle(sh.s, from) : 0u;
            vec4 sd = kind == KIND_PLOT ? subgroupShuffle(sh.d, from)
                    : kind == KIND_RECTS ? vec4(subgroupShuffle(sh.d.x, from), 0.0, 0.0, 0.0)
                    : kind == KIND_GLYPHS ? vec4(subgroupShuffle(sh.d.xy, from), 0.0, 0.0) : vec4(0);
            vec4 t = kind == KIND_RECTS ? unpackColor(floatBitsToUint(sd.x))
                    : kind == KIND_HISTOGRAM ? histogramTint(ss)
                    : kind == KIND_PLOT ? plotTint(ss) : unpackColor(floatBitsToUint(sd.y));
            for (int p = 0; p < ROWS; p++) {
                ivec2 px = top + ivec2(0, p);
                if (kind != KIND_PLOT && (px.x < sb.x || px.x >= sb.z || px.y < sb.y || px.y >= sb.w)) {
                    continue;
                }
                vec4 tp = t;
                if (kind == KIND_GLYPHS) {
                    uint a = floatBitsToUint(sd.x);
                    uvec2 tx = uvec2(a & 0xffffu, a >> 16) + uvec2(px - sb.xy);   // as glyphCoverageOf
                    uint at = tx.y * atlasWidth + tx.x;
                    float coverage = float((atlas.texels[at >> 2] >> (8u * (at & 3u))) & 0xffu) / 255.0;
                    if (coverage == 0.0) {
                        continue;
                    }
                    tp.a *= coverage;
                } else if (kind == KIND_PLOT && !segmentCovers(vec2(px) + 0.5, sd.xy, sd.zw, pf.lineWidth)) {
                    continue;
                }
                color[p] = blendLayer(color[p], tp);
            }
        }
    }
}

void main() {
    // The header in one round: every box, then pick (no load waits on another).
    uvec4 ends = scene.boxEnds;
    ivec4 boxes[BOXES] = ivec4[BOXES](scene.boxes[0], scene.boxes[1], scene.boxes[2]);
    uint dispatched = gl_WorkGroupID.y * scene.groups.x + gl_WorkGroupID.x;
    if (dispatched >= ends.z) {
        return;
    }
    // The last box's tiles first: the plot's, whose subgroups take longest (segments to search and blend), start in the
    // first wave instead of ending the dispatch (H200 4K demo: HUD 27.4 -> 24.3 us). Which box owns a tile is unchanged.
    uint group = ends.z - 1u - dispatched;
    uint box = group < ends.x ? 0u : group < ends.y ? 1u : 2u;
    uint boxStart = box == 0u ? 0u : box == 1u ? ends.x : ends.y;
    ivec4 b = boxes[box];
    uint local = group - boxStart;
    uint boxW = uint(b.z - b.x);
    // local / boxW in floats, then put right: the quotient is a row of the box (under 2^11 for any target), so its
    // float value is within 1e-3 of the true one (2.5 ulp) and one step either way makes it exact. An integer
    // division by a value read from memory costs every invocation a sequence of its own.
    uint row = uint((float(local) + 0.5) / float(boxW));
    row = row * boxW > local ? row - 1u : (row + 1u) * boxW <= local ? row + 1u : row;
    ivec2 tile = b.xy + ivec2(local - row * boxW, row);
    for (uint j = 0u; j < box; j++) {
        ivec4 e = boxes[j];
        if (all(greaterThanEqual(tile, e.xy)) && all(lessThan(tile, e.zw))) {
            return;   // an earlier box's group owns this tile (uniform across the workgroup)
        }
    }
    ivec2 size = ivec2(scene.groups.zw);
    ivec4 tileBounds = ivec4(tile * int(TILE), min(tile * int(TILE) + int(TILE), size));
    // This invocation's pixels: one column, ROWS rows down from `top`.
    // Strips down the tile: consecutive invocations go down a column (a subgroup of 32 spans 8 x 16 pixels at ROWS 4),
    // so x-dense shapes (plot segments, bars) meet fewer hits per subgroup.
    uint perColumn = TILE / ROWS;
    ivec2 top = tile * int(TILE) + ivec2(gl_LocalInvocationIndex / perColumn, (gl_LocalInvocationIndex % perColumn) * ROWS);
    vec4 color[ROWS];
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        color[p] = all(lessThan(px, size)) ? unpackUnorm4x8(imageLoad(target, px).x) : vec4(0);
    }
    // The rectangle the subgroup's pixels span, within the target: what its shapes are culled against.
    ivec4 sgBounds = ivec4(subgroupMin(top.x), subgroupMin(top.y), subgroupMax(top.x) + 1, subgroupMax(top.y) + ROWS);
    sgBounds = ivec4(max(sgBounds.xy, tileBounds.xy), min(sgBounds.zw, tileBounds.zw));
    uint atlasWidth = floatBitsToUint(scene.histParams.z);
    PlotFrame pf = PlotFrame(scene.plotArea, scene.plotParams.x, scene.plotParams.y, scene.plotParams.z, scene.plotParams.w,
            scene.lineParams.x);
    uint lane = gl_SubgroupInvocationID;
    uint S = gl_SubgroupSize;

    // The ranges that reach the subgroup, all tested at once: one range per invocation, bit r of `mask`.
    uint ranges = min(ends.w, MAX_RANGES);
    uvec2 mask = uvec2(0);
    for (uint c = 0u; c < ranges; c += S) {
        uint r = c + lane;
        uvec4 ballot = subgroupBallot(r < ranges && overlaps(scene.ranges[min(r, MAX_RANGES - 1u)].bounds, sgBounds));
        for (uint w = 0u; w < (S + 31u) / 32u; w++) {
            uint at = c + 32u * w;   // the range of this word's bit 0 (S divides 32 or 32 divides S: no word straddles)
            if (at < MAX_RANGES) {
                mask[at / 32u] |= ballot[w] << (at % 32u);
            }
        }
    }
    for (uint mw = 0u; mw < 2u; mw++) {
        uint rangeBits = mask[mw];
        while (rangeBits != 0u) {
            uint r = 32u * mw + uint(findLSB(rangeBits));
            rangeBits &= rangeBits - 1u;
            Range range = scene.ranges[r];
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
                uint entries = min(plot.count, PLOT_CAPACITY);
                uint oldest = (plot.head + PLOT_CAPACITY - plot.count) % PLOT_CAPACITY;
                float margin = 0.5 * pf.lineWidth + 2.0;
                // First entry at or right of the left edge (less the margin), last one at or left of the right edge (plus it).
                uint firstIn, lastIn;
                plotWindow(pf, oldest, entries, float(sgBounds.x) - margin, float(sgBounds.z) + margin, firstIn, lastIn);
                uint k0 = firstIn == entries ? entries : (firstIn > 0u ? firstIn - 1u : 0u);
                uint k1 = entries >= 2u ? min(lastIn > 0u ? lastIn - 1u : 0u, entries - 2u) : 0u;
                first = k0;
                n = entries >= 2u && k1 >= k0 ? k1 - k0 + 1u : 0u;
                count = 2u * n;
                second = PLOT_CAPACITY - 1u + k0;
            }
            // Two shapes per invocation a round, both fetched before either is culled.
            for (uint base = 0u; base < count; base += 2u * S) {
                uint i0 = base + lane, i1 = base + S + lane;
                Shape a, c;
                bool hitA = i0 < count && fetchShape(range.kind, i0 < n ? first + i0 : second + (i0 - n), pf, a) && overlaps(a.q, sgBounds);
                bool hitC = i1 < count && fetchShape(range.kind, i1 < n ? first + i1 : second + (i1 - n), pf, c) && overlaps(c.q, sgBounds);
                uvec4 ballotA = subgroupBallot(hitA), ballotC = subgroupBallot(hitC);
                // One copy of the hit loop per kind (the kind is uniform across the subgroup): each loop holds only its
                // kind's test and shuffles, not every kind's behind a branch per hit.
                if (range.kind == KIND_PLOT) {
                    blendHits(ballotA, a, KIND_PLOT, top, pf, atlasWidth, color);
                    blendHits(ballotC, c, KIND_PLOT, top, pf, atlasWidth, color);
                } else if (range.kind == KIND_GLYPHS) {
                    blendHits(ballotA, a, KIND_GLYPHS, top, pf, atlasWidth, color);
                    blendHits(ballotC, c, KIND_GLYPHS, top, pf, atlasWidth, color);
                } else if (range.kind == KIND_HISTOGRAM) {
                    blendHits(ballotA, a, KIND_HISTOGRAM, top, pf, atlasWidth, color);
                    blendHits(ballotC, c, KIND_HISTOGRAM, top, pf, atlasWidth, color);
                } else {
                    blendHits(ballotA, a, KIND_RECTS, top, pf, atlasWidth, color);
                    blendHits(ballotC, c, KIND_RECTS, top, pf, atlasWidth, color);
                }
            }
        }
    }
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        if (all(lessThan(px, size))) {
            imageStore(target, px, uvec4(packUnorm4x8(color[p])));
        }
    }
}

// The HUD's compute composite, shared by hud.comp (its own pass over the HUD's tiles, read-modify-write)
// and tonemap.comp's HUD variant (composited before the tonemap's single store): the Scene block, the
// culling and the blending. Every subgroup works alone (no shared memory, no barriers): compositeHud
// culls the draw list against the rectangle the subgroup's pixels span and blends the hits over each
// invocation's HUD_ROWS pixels (one column, from `top` down), in draw order. All the subgroup's
// invocations must call it together (ballots, shuffles and the plot's search assume a full subgroup).
//
// The including shader defines HUD_ROWS and HUD_BINDING_SCENE, enables the subgroup extensions
// (basic, ballot, shuffle, arithmetic) and includes hud_common.glsl first.
#ifndef HUD_COMPOSITE_GLSL
#define HUD_COMPOSITE_GLSL

const uint TILE = 16u;   // the tiles the Scene block's boxes count in
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

layout(std430, set = 0, binding = HUD_BINDING_SCENE) readonly buffer Scene {
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

bool overlaps(ivec4 a, ivec4 b) {
    return a.x < a.z && a.y < a.w && a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
}

// `v` rounded to 8 bits per channel, as the value k / 255 this shader computes: what the blend starts
// from and what each layer leaves. Both composites start from it (hud.comp from the loaded texel, whose
// float the driver may compute as k * (1 / 255) instead), so that their blends see the same floats.
// `precise` here and in blendLayer: the same bytes wherever they are inlined (a fused multiply-add in
// one shader only would move values near a half step across it).
vec4 eightBits(vec4 v) {
    precise vec4 stored = floor(clamp(v, 0.0, 1.0) * 255.0 + 0.5) / 255.0;
    return stored;
}

vec4 blendLayer(vec4 dst, vec4 src) {
    precise vec4 outc = vec4(src.rgb * src.a + dst.rgb * (1.0 - src.a), src.a + dst.a * (1.0 - src.a));
    return eightBits(outc);   // the 8-bit store between draws
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
        float t0 = plot.entries[(oldest + (in0 ? probe0 : 0u)) % plot.capacity].time;
        float t1 = plot.entries[(oldest + (in1 ? probe1 : 0u)) % plot.capacity].time;
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
void blendHits(uvec4 ballot, Shape sh, uint kind, ivec2 top, PlotFrame pf, uint atlasWidth, inout vec4 color[HUD_ROWS], inout uint touched) {
    for (uint w = 0u; w < (gl_SubgroupSize + 31u) / 32u; w++) {
        uint bits = ballot[w];
        while (bits != 0u) {
            uint from = 32u * w + uint(findLSB(bits));
            bits &= bits - 1u;
            ivec4 sb = subgroupShuffle(sh.q, from);
            uint ss = subgroupShuffle(sh.s, from);
            vec4 sd = kind == KIND_HISTOGRAM ? vec4(0) : subgroupShuffle(sh.d, from);
            vec4 t = kind == KIND_RECTS ? unpackColor(floatBitsToUint(sd.x))
                    : kind == KIND_HISTOGRAM ? histogramTint(ss)
                    : kind == KIND_PLOT ? plotTint(ss) : unpackColor(floatBitsToUint(sd.y));
            for (int p = 0; p < HUD_ROWS; p++) {
                ivec2 px = top + ivec2(0, p);
                if (px.x < sb.x || px.x >= sb.z || px.y < sb.y || px.y >= sb.w) {
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
                touched |= 1u << p;
            }
        }
    }
}

// Blends the HUD over this invocation's pixels `color` (8 bits per channel, as the target stores them);
// bit p of `touched` is set where a shape was blended over pixel p. `size`: the target's.
void compositeHud(ivec2 top, ivec2 size, inout vec4 color[HUD_ROWS], inout uint touched) {
    // The rectangle the subgroup's pixels span, within the target: what its shapes are culled against.
    ivec4 sgBounds = ivec4(subgroupMin(top.x), subgroupMin(top.y), subgroupMax(top.x) + 1, subgroupMax(top.y) + HUD_ROWS);
    sgBounds = ivec4(max(sgBounds.xy, ivec2(0)), min(sgBounds.zw, size));
    uint atlasWidth = floatBitsToUint(scene.histParams.z);
    PlotFrame pf = PlotFrame(scene.plotArea, scene.plotParams.x, scene.plotParams.y, scene.plotParams.z, scene.plotParams.w,
            scene.lineParams.x);
    uint lane = gl_SubgroupInvocationID;
    uint S = gl_SubgroupSize;

    // The ranges that reach the subgroup, all tested at once: one range per invocation, bit r of `mask`.
    uint ranges = min(scene.boxEnds.w, MAX_RANGES);
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
                uint entries = min(plot.count, plot.capacity);
                uint oldest = (plot.head + plot.capacity - plot.count) % plot.capacity;
                float margin = 0.5 * pf.lineWidth + 2.0;
                // First entry at or right of the left edge (less the margin), last one at or left of the right edge (plus it).
                uint firstIn, lastIn;
                plotWindow(pf, oldest, entries, float(sgBounds.x) - margin, float(sgBounds.z) + margin, firstIn, lastIn);
                uint k0 = firstIn == entries ? entries : (firstIn > 0u ? firstIn - 1u : 0u);
                uint k1 = entries >= 2u ? min(lastIn > 0u ? lastIn - 1u : 0u, entries - 2u) : 0u;
                first = k0;
                n = entries >= 2u && k1 >= k0 ? k1 - k0 + 1u : 0u;
                count = 2u * n;
                second = plot.capacity - 1u + k0;
            }
            // Two shapes per invocation a round, both fetched before either is culled.
            for (uint base = 0u; base < count; base += 2u * S) {
                uint i0 = base + lane, i1 = base + S + lane;
                Shape a, c;
                bool hitA = i0 < count && fetchShape(range.kind, i0 < n ? first + i0 : second + (i0 - n), pf, a) && overlaps(a.q, sgBounds);
                bool hitC = i1 < count && fetchShape(range.kind, i1 < n ? first + i1 : second + (i1 - n), pf, c) && overlaps(c.q, sgBounds);
                blendHits(subgroupBallot(hitA), a, range.kind, top, pf, atlasWidth, color, touched);
                blendHits(subgroupBallot(hitC), c, range.kind, top, pf, atlasWidth, color, touched);
            }
        }
    }
}

#endif

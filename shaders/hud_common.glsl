// Shared declarations of the HUD: hud.vert and hud.frag (the graphics path) and hud.comp (the compute
// path). Every shape is defined here once, in pixels, so both paths cover the same pixels:
//   - rectangles, glyphs and histogram bars have whole-pixel edges: a pixel is covered when its index
//     lies in [x0, x1) x [y0, y1), which is also what rasterization at pixel centres gives;
//   - plot segments cover the pixels whose centre lies within half the line width of the segment
//     (a test both paths evaluate with the same `precise` arithmetic).
// RECORD_LOW_EV, RECORD_HIGH_EV (offsets into the exposure record) come as defines from ExposureShaderLayout.
// PLOT_CAPACITY (the plot ring's entries, ExposurePlotNode.CAPACITY) comes as a define too: a constant, so that the
// ring's index arithmetic compiles to masks and multiplies rather than integer divisions by a value read from memory.

struct GlyphInstance {
    float x;       // top-left corner of the glyph's bitmap in output pixels (whole pixels)
    float y;
    uint atlas;    // bitmap origin in the atlas: x | y << 16
    uint size;     // bitmap size in texels: width | height << 16
    uint rgba;     // 8 bits per channel, red in the low byte
};

// Plot ring written by hud_plot.comp: a header, then `capacity` entries {time, applied EV, target EV, 0}.
struct PlotEntry {
    float time;
    float ev;
    float target;
    float unused;
};

layout(std430, set = 0, binding = 0) readonly buffer Atlas { uint texels[]; } atlas;   // 8-bit coverage, 4 per word
layout(std430, set = 0, binding = 1) readonly buffer Text { GlyphInstance glyphs[]; } text;
layout(std430, set = 0, binding = 2) readonly buffer Histogram { float bins[]; } hist;
layout(std430, set = 0, binding = 3) readonly buffer Exposure { float values[]; } exposure;
layout(std430, set = 0, binding = 4) readonly buffer Plot { uint head; uint count; uint capacity; uint unused; PlotEntry entries[]; } plot;

vec4 unpackColor(uint c) {
    return vec4(c & 0xffu, (c >> 8) & 0xffu, (c >> 16) & 0xffu, c >> 24) / 255.0;
}

// Pixel bounds [x0, x1) x [y0, y1) of glyph instance i.
ivec4 glyphBounds(uint i) {
    GlyphInstance g = text.glyphs[i];
    ivec2 o = ivec2(g.x, g.y);
    return ivec4(o, o + ivec2(g.size & 0xffffu, g.size >> 16));
}

// Coverage of glyph g at pixel p (inside its bounds): its atlas texel, 0..1.
float glyphCoverageOf(GlyphInstance g, ivec2 p, uint atlasWidth) {
    uvec2 t = uvec2(g.atlas & 0xffffu, g.atlas >> 16) + uvec2(p - ivec2(g.x, g.y));
    uint at = t.y * atlasWidth + t.x;
    return float((atlas.texels[at >> 2] >> (8u * (at & 3u))) & 0xffu) / 255.0;
}

// The same for glyph instance i.
float glyphCoverage(uint i, ivec2 p, uint atlasWidth) {
    return glyphCoverageOf(text.glyphs[i], p, atlasWidth);
}

// Histogram panel quad q: bars 0..255 from the normalized histogram (scaled so a bin holding 10 % of
// the samples fills the area), then the low (256) and high (257) percentile markers from the exposure
// record. `area` has whole-pixel edges. Returns pixel bounds [x0, y0, x1, y1); empty when x0 >= x1.
ivec4 histogramQuad(uint q, vec4 area, float minEV, float binsPerEV) {
    precise float barW = area.z / 256.0;
    int bottom = int(area.y + area.w);
    if (q < 256u) {
        precise float h = clamp(hist.bins[q] * 10.0, 0.0, 1.0) * area.w;
        precise float left = area.x + float(q) * barW;
        precise float right = left + max(barW - 0.5, 0.5);
        precise float top = area.y + area.w - h;
        return ivec4(int(floor(left + 0.5)), int(floor(top + 0.5)), int(floor(right + 0.5)), bottom);
    }
    float ev = q == 256u ? exposure.values[RECORD_LOW_EV] : exposure.values[RECORD_HIGH_EV];
    ev = isnan(ev) ? minEV : ev;
    precise float bin = clamp(1.0 + (ev - minEV) * binsPerEV, 0.0, 256.0);
    precise float at = area.x + bin * barW;
    int x = int(floor(at + 0.5)) - 1;
    return ivec4(x, int(area.y), x + 2, bottom);
}

vec4 histogramTint(uint q) {
    return q < 256u ? vec4(0.85, 0.85, 0.9, 0.9) : vec4(1.0, 0.75, 0.2, 1.0);
}

// Plot parameters: the area (whole pixels), the newest time (right edge), seconds across the width,
// the EV at the bottom and top edges, and the line width in pixels.
struct PlotFrame {
    vec4 area;
    float now;
    float span;
    float evLow;
    float evHigh;
    float lineWidth;
};

vec2 plotPoint(PlotFrame f, float time, float v) {
    precise float x = f.area.x + f.area.z * (1.0 - (f.now - time) / f.span);
    precise float t = clamp((v - f.evLow) / (f.evHigh - f.evLow), 0.0, 1.0);
    precise float y = f.area.y + f.area.w * (1.0 - t);
    return vec2(x, y);
}

uint plotSegments() {
    return 2u * (PLOT_CAPACITY - 1u);
}

vec4 plotTint(uint quad) {
    return quad < PLOT_CAPACITY - 1u ? vec4(1.0, 0.8, 0.25, 1.0) : vec4(0.35, 0.8, 1.0, 0.9);
}

// Segment `quad` of the plot: applied EV (quads 0..capacity-2), then target EV. False when it has no
// data in the window; else its end points in pixels (clipped at the window's left edge).
bool plotSegment(PlotFrame f, uint quad, out vec2 p0, out vec2 p1) {
    p0 = vec2(0);
    p1 = vec2(0);
    uint segments = PLOT_CAPACITY - 1u;
    uint series = quad / segments;
    uint k = quad % segments;
    if (k + 1u >= plot.count) {
        return false;
    }
    uint oldest = (plot.head + PLOT_CAPACITY - plot.count) % PLOT_CAPACITY;
    PlotEntry a = plot.entries[(oldest + k) % PLOT_CAPACITY];
    PlotEntry b = plot.entries[(oldest + k + 1u) % PLOT_CAPACITY];
    precise float start = f.now - f.span;
    if (!(b.time > start && b.time >= a.time && b.time <= f.now)) {
        return false;
    }
    float va = series == 0u ? a.ev : a.target;
    float vb = series == 0u ? b.ev : b.target;
    float ta = a.time;
    if (ta < start) {
        // Clip at the left edge: interpolate the segment to the window's start.
        precise float s = (start - ta) / max(b.time - ta, 1e-6);
        precise float clipped = va + (vb - va) * s;
        va = clipped;
        ta = start;
    }
    p0 = plotPoint(f, ta, va);
    p1 = plotPoint(f, b.time, vb);
    return true;
}

// Pixels that may hold part of segment p0-p1 of width w: conservative bounds.
ivec4 segmentBounds(vec2 p0, vec2 p1, float w) {
    vec2 lo = min(p0, p1) - 0.5 * w, hi = max(p0, p1) + 0.5 * w;
    return ivec4(ivec2(floor(lo)), ivec2(ceil(hi)) + 1);
}

// True when the pixel centre c lies within w / 2 of segment p0-p1 (round caps: consecutive segments join).
bool segmentCovers(vec2 c, vec2 p0, vec2 p1, float w) {
    precise vec2 d = p1 - p0;
    precise vec2 e = c - p0;
    precise float len2 = d.x * d.x + d.y * d.y;
    precise float along = e.x * d.x + e.y * d.y;
    precise float t = len2 > 0.0 ? clamp(along / len2, 0.0, 1.0) : 0.0;
    precise vec2 q = e - t * d;
    precise float dist2 = q.x * q.x + q.y * q.y;
    precise float r = 0.5 * w;
    return dist2 <= r * r;
}

#version 460
// HUD geometry, all generated here from storage buffers (no vertex buffers). Six vertices per quad.
//   mode 0: text, one quad per glyph instance (binding 1), drawn 1:1 from the font atlas
//   mode 1: histogram bars, one quad per bin straight from the GPU's normalized histogram (binding 2),
//           plus two marker quads at the low and high percentile cuts from the exposure record (binding 3)
//   mode 2: one solid rectangle (panels, grid lines)
//   mode 3: exposure plot, one quad per line segment: applied EV, then target EV, from the plot ring
//           (binding 4) that hud_plot.comp appends to on the GPU
#include "hud_common.glsl"

layout(location = 0) out vec2 atlasUV;      // texel coordinates in the atlas (text)
layout(location = 1) flat out uint isText;
layout(location = 2) out vec4 tint;

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

vec2 plotPoint(PlotEntry e, uint series) {
    float x = pc.rect.x + pc.rect.z * (1.0 - (pc.plotNow - e.time) / pc.plotSpan);
    float v = series == 0u ? e.ev : e.target;
    float f = clamp((v - pc.plotEvLow) / (pc.plotEvHigh - pc.plotEvLow), 0.0, 1.0);
    return vec2(x, pc.rect.y + pc.rect.w * (1.0 - f));
}

void main() {
    uint quad = uint(gl_VertexIndex) / 6u;
    vec2 corner = CORNERS[uint(gl_VertexIndex) % 6u];
    vec2 pos;
    isText = 0u;
    atlasUV = vec2(0);
    if (pc.mode == 0u) {
        GlyphInstance g = text.glyphs[quad];
        vec2 size = vec2(g.size & 0xffffu, g.size >> 16);
        pos = vec2(g.x, g.y) + corner * size;
        atlasUV = vec2(g.atlas & 0xffffu, g.atlas >> 16) + corner * size;
        isText = 1u;
        tint = unpackColor(g.rgba);
    } else if (pc.mode == 1u) {
        float barW = pc.rect.z / 256.0;
        if (quad < 256u) {
            // Bins are probabilities; scale so a bin holding 10% of the samples fills the panel.
            float h = clamp(hist.bins[quad] * 10.0, 0.0, 1.0) * pc.rect.w;
            pos = vec2(pc.rect.x + float(quad) * barW, pc.rect.y + pc.rect.w - h) + corner * vec2(max(barW - 0.5, 0.5), h);
            tint = vec4(0.85, 0.85, 0.9, 0.9);
        } else {
            // Percentile cuts: EV values mapped back to bin positions.
            float ev = quad == 256u ? exposure.values[RECORD_LOW_EV] : exposure.values[RECORD_HIGH_EV];
            float bin = 1.0 + (ev - pc.minEV) * pc.binsPerEV;
            pos = vec2(pc.rect.x + clamp(bin, 0.0, 256.0) * barW - 1.0, pc.rect.y) + corner * vec2(2.0, pc.rect.w);
            tint = vec4(1.0, 0.75, 0.2, 1.0);
        }
    } else if (pc.mode == 3u) {
        uint segments = plot.capacity - 1u;
        uint series = quad / segments;
        uint k = quad % segments;
        tint = series == 0u ? vec4(1.0, 0.8, 0.25, 1.0) : vec4(0.35, 0.8, 1.0, 0.9);
        pos = vec2(-1e4);   // off screen: a segment with no data
        if (k + 1u < plot.count) {
            uint oldest = (plot.head + plot.capacity - plot.count) % plot.capacity;
            PlotEntry a = plot.entries[(oldest + k) % plot.capacity];
            PlotEntry b = plot.entries[(oldest + k + 1u) % plot.capacity];
            float start = pc.plotNow - pc.plotSpan;
            if (b.time > start && b.time >= a.time) {
                if (a.time < start) {
                    // Clip at the left edge: interpolate the segment to the window's start.
                    float s = (start - a.time) / max(b.time - a.time, 1e-6);
                    a.ev = mix(a.ev, b.ev, s);
                    a.target = mix(a.target, b.target, s);
                    a.time = start;
                }
                vec2 p0 = plotPoint(a, series), p1 = plotPoint(b, series);
                vec2 d = p1 - p0;
                float len = length(d);
                vec2 dir = len > 1e-4 ? d / len : vec2(1, 0);
                vec2 n = vec2(-dir.y, dir.x) * (0.5 * pc.lineWidth);
                // Extended by half a width at both ends so consecutive segments join without gaps.
                vec2 along = dir * (0.5 * pc.lineWidth);
                pos = mix(p0 - along, p1 + along, corner.x) + mix(-n, n, corner.y);
            }
        }
    } else {
        pos = pc.rect.xy + corner * pc.rect.zw;
        tint = unpackColor(pc.rgba);
    }
    gl_Position = vec4(pos / pc.viewport * 2.0 - 1.0, 0.0, 1.0);
}

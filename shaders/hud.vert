#version 460
// HUD geometry for the graphics path, all generated here from storage buffers (no vertex buffers).
// Six vertices per quad; each quad is the pixel bounds of one shape from hud_common.glsl, so the
// compute path (hud.comp) covers the same pixels.
//   mode 0: text, one quad per glyph instance (binding 1, from instance pc.first), drawn 1:1 from the font atlas
//   mode 1: histogram bars, one quad per bin straight from the GPU's normalized histogram (binding 2),
//           plus two marker quads at the low and high percentile cuts from the exposure record (binding 3)
//   mode 2: one solid rectangle (panels, grid lines)
//   mode 3: exposure plot, the bounds of one line segment per quad (the fragment shader keeps the
//           pixels within half the line width): applied EV, then target EV, from the plot ring
//           (binding 4) that hud_plot.comp appends to on the GPU
#include "hud_common.glsl"
#include "hud_push.glsl"

layout(location = 0) flat out ivec4 glyph;      // text: pixel origin xy, instance index z
layout(location = 1) flat out vec4 segment;     // plot: end points
layout(location = 2) flat out vec4 tint;

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
    uint quad = uint(gl_VertexIndex) / 6u;
    vec2 corner = CORNERS[uint(gl_VertexIndex) % 6u];
    ivec4 bounds = ivec4(0);
    glyph = ivec4(0);
    segment = vec4(0);
    if (pc.mode == 0u) {
        uint i = pc.rgba + quad;   // text: pc.rgba holds the first instance
        bounds = glyphBounds(i);
        glyph = ivec4(bounds.xy, int(i), 0);
        tint = unpackColor(text.glyphs[i].rgba);
    } else if (pc.mode == 1u) {
        bounds = histogramQuad(quad, pc.rect, pc.minEV, pc.binsPerEV);
        tint = histogramTint(quad);
    } else if (pc.mode == 3u) {
        tint = plotTint(quad);
        vec2 p0, p1;
        if (plotSegment(plotFrame(), quad, p0, p1)) {
            bounds = segmentBounds(p0, p1, pc.lineWidth);
            segment = vec4(p0, p1);
        }
    } else {
        bounds = ivec4(pc.rect.xy, pc.rect.xy + pc.rect.zw);
        tint = unpackColor(pc.rgba);
    }
    // An empty shape collapses to a point off screen (an inverted quad would still rasterize).
    vec2 pos = bounds.x < bounds.z && bounds.y < bounds.w ? mix(vec2(bounds.xy), vec2(bounds.zw), corner) : vec2(-1e4);
    gl_Position = vec4(pos / pc.viewport * 2.0 - 1.0, 0.0, 1.0);
}

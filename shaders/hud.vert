#version 460
// HUD geometry, all generated here from storage buffers (no vertex buffers). Six vertices per quad.
//   mode 0: text, one quad per glyph instance {x, y, code, rgba8} in pixels (binding 1)
//   mode 1: histogram bars, one quad per bin straight from the GPU's normalized histogram (binding 2),
//           plus two marker quads at the low and high percentile cuts from the exposure record (binding 3)
//   mode 2: one translucent panel rectangle
#include "hud_common.glsl"

layout(location = 0) out vec2 cellUV;     // glyph cell coordinates in font pixels (text)
layout(location = 1) flat out uint glyph; // glyph index, or ~0u for solid quads
layout(location = 2) out vec4 tint;

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

vec4 unpackColor(uint c) {
    return vec4(c & 0xffu, (c >> 8) & 0xffu, (c >> 16) & 0xffu, c >> 24) / 255.0;
}

void main() {
    uint quad = uint(gl_VertexIndex) / 6u;
    vec2 corner = CORNERS[uint(gl_VertexIndex) % 6u];
    vec2 pos;
    glyph = ~0u;
    cellUV = vec2(0);
    if (pc.mode == 0u) {
        GlyphInstance g = text.glyphs[quad];
        vec2 size = vec2(FONT_CELL_W, FONT_CELL_H) * pc.scale;
        pos = vec2(g.x, g.y) + corner * size;
        cellUV = corner * vec2(FONT_CELL_W, FONT_CELL_H);
        glyph = g.code;
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
    } else {
        pos = pc.rect.xy + corner * pc.rect.zw;
        tint = vec4(0.0, 0.0, 0.0, 0.55);
    }
    gl_Position = vec4(pos / pc.viewport * 2.0 - 1.0, 0.0, 1.0);
}

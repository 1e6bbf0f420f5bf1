#version 460
// HUD pixels: glyph bits from the built-in font (binding 0), or solid quads.
#include "hud_common.glsl"

layout(location = 0) in vec2 cellUV;
layout(location = 1) flat in uint glyph;
layout(location = 2) in vec4 tint;
layout(location = 0) out vec4 color;

void main() {
    if (glyph != ~0u) {
        uint x = min(uint(cellUV.x), FONT_CELL_W - 1u);
        uint y = min(uint(cellUV.y), FONT_CELL_H - 1u);
        uint word = font.words[2u * glyph + y / 4u];
        if (((word >> (8u * (y % 4u) + x)) & 1u) == 0u) {
            discard;
        }
    }
    color = tint;
}

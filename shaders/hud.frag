#version 460
// HUD pixels: glyph coverage from the font atlas (binding 0), read texel for texel, or solid quads.
#include "hud_common.glsl"

layout(location = 0) in vec2 atlasUV;
layout(location = 1) flat in uint isText;
layout(location = 2) in vec4 tint;
layout(location = 0) out vec4 color;

void main() {
    float alpha = tint.a;
    if (isText != 0u) {
        uvec2 t = uvec2(atlasUV);   // pixel centres land inside texels: the glyph is placed on whole pixels
        uint i = t.y * pc.atlasWidth + t.x;
        float coverage = float((atlas.texels[i >> 2] >> (8u * (i & 3u))) & 0xffu) / 255.0;
        if (coverage == 0.0) {
            discard;
        }
        alpha *= coverage;
    }
    color = vec4(tint.rgb, alpha);
}

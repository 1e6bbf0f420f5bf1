#version 460
// HUD pixels for the graphics path: glyph coverage from the font atlas, read texel for texel; plot
// segments keep the pixels whose centre lies within half the line width; other quads are solid.
#include "hud_common.glsl"
#include "hud_push.glsl"

layout(location = 0) flat in ivec4 glyph;
layout(location = 1) flat in vec4 segment;
layout(location = 2) flat in vec4 tint;
layout(location = 0) out vec4 color;

void main() {
    float alpha = tint.a;
    if (pc.mode == 0u) {
        float coverage = glyphCoverage(uint(glyph.z), ivec2(gl_FragCoord.xy), pc.atlasWidth);
        if (coverage == 0.0) {
            discard;
        }
        alpha *= coverage;
    } else if (pc.mode == 3u && !segmentCovers(gl_FragCoord.xy, segment.xy, segment.zw, pc.lineWidth)) {
        discard;
    }
    color = vec4(tint.rgb, alpha);
}

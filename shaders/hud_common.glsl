// Shared declarations of hud.vert and hud.frag.
const uint FONT_CELL_W = 6u;
const uint FONT_CELL_H = 8u;
const uint RECORD_LOW_EV = 4u;
const uint RECORD_HIGH_EV = 5u;

struct GlyphInstance {
    float x;
    float y;
    uint code;   // glyph index: character - 32
    uint rgba;   // 8 bits per channel, red in the low byte
};

layout(std430, set = 0, binding = 0) readonly buffer Font { uint words[]; } font;
layout(std430, set = 0, binding = 1) readonly buffer Text { GlyphInstance glyphs[]; } text;
layout(std430, set = 0, binding = 2) readonly buffer Histogram { float bins[]; } hist;
layout(std430, set = 0, binding = 3) readonly buffer Exposure { float values[]; } exposure;

layout(push_constant) uniform Push {
    vec4 rect;        // x, y, width, height in pixels (bars, panel)
    vec2 viewport;    // target size in pixels
    float scale;      // glyph scale
    uint mode;        // 0 text, 1 histogram, 2 panel
    float minEV;      // histogram range, to place the percentile markers
    float binsPerEV;
} pc;

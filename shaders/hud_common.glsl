// Shared declarations of hud.vert and hud.frag. RECORD_LOW_EV, RECORD_HIGH_EV, RECORD_EV and
// RECORD_TARGET_EV (offsets into the exposure record) come as defines from ExposureShaderLayout.

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

layout(push_constant) uniform Push {
    vec4 rect;        // x, y, width, height in pixels (panels, bars, plot area)
    vec2 viewport;    // target size in pixels
    uint mode;        // 0 text, 1 histogram, 2 solid rectangle, 3 exposure plot
    uint atlasWidth;  // texels per atlas row
    float minEV;      // histogram range, to place the percentile markers
    float binsPerEV;
    float plotNow;    // plot: newest time on the right edge
    float plotSpan;   // plot: seconds across the width
    float plotEvLow;  // plot: EV at the bottom and top edges
    float plotEvHigh;
    float lineWidth;  // plot: line width in pixels
    uint rgba;        // solid rectangle colour
} pc;

vec4 unpackColor(uint c) {
    return vec4(c & 0xffu, (c >> 8) & 0xffu, (c >> 16) & 0xffu, c >> 24) / 255.0;
}

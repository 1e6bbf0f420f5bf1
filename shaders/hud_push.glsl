// Push constants of the HUD's graphics path (hud.vert, hud.frag): one block per draw.
layout(push_constant) uniform Push {
    vec4 rect;        // x, y, width, height in whole pixels (panels, histogram area, plot area)
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
    uint rgba;        // solid rectangle colour; text: index of the first glyph instance
} pc;

PlotFrame plotFrame() {
    return PlotFrame(pc.rect, pc.plotNow, pc.plotSpan, pc.plotEvLow, pc.plotEvHigh, pc.lineWidth);
}

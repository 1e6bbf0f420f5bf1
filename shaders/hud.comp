#version 460
// The HUD composited in compute: the same shapes as hud.vert/hud.frag (hud_common.glsl), blended over
// the target in the same order with the same blend (src alpha, one minus src alpha; alpha: one, one
// minus src alpha), each layer rounded to the target's 8 bits as a colour attachment stores it. Only
// the tiles under the HUD's panels run: everything else is left untouched.
//
//   bindings 0-4: as hud_common.glsl (atlas, glyph instances, normalized histogram, exposure record, plot ring)
//   set 0, binding 5: storage buffer, the frame's scene (below): tile boxes, plot and histogram
//                     parameters, the draw list (ranges, in draw order) and the solid rectangles.
//   set 0, binding 6: storage image rgba8, layout GENERAL: the target, read and written.
//   dispatch scene.groups.x x scene.groups.y groups, one 16 x 16 tile each; no push constants.
//
// Every subgroup works alone (no shared memory, no barriers): an invocation holds ROWS pixels of one
// column, consecutive invocations go down the tile's columns (a subgroup of 32 spans 4 x 16 pixels at
// ROWS 2: the plot's and the bars' x-dense shapes give it fewer hits than a 16 x 4 strip), and the
// subgroup culls against the rectangle its pixels span. First every range's bounds at once (one range
// per invocation, a ballot), then, range by range in draw order, two shapes per
// invocation a round (both fetched before either is culled); a ballot gives the hits and the subgroup
// walks them in draw order, each hit passed round by shuffles, every pixel blending the hits that
// cover it. Ranges are narrowed first to the shapes that can reach the subgroup's rectangle: histogram
// bars from its x extent, plot segments by a search of the ring's times (they never decrease:
// hud_plot.comp empties the ring when time goes back, so x grows with the entry index). Skipped
// shapes are ones the bounds test rejects. Needs subgroup ballot, shuffle and arithmetic in compute
// (HudOverlay.usesCompute checks).
// The Scene block, the culling and the blending live in hud_composite.glsl (tonemap.comp's HUD variant
// composites the same shapes in the tonemap's own pass).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "hud_common.glsl"

#define ROWS 2   // pixel rows per invocation (1, 2, 4, 8 or 16 fit the tile; 2 measured best)
#define HUD_ROWS ROWS
#define HUD_BINDING_SCENE 5
#include "hud_composite.glsl"
layout(local_size_x = 16, local_size_y = 16 / ROWS) in;

layout(set = 0, binding = 6, rgba8) uniform restrict image2D target;


void main() {
    // The header in one round: every box, then pick (no load waits on another).
    uvec4 ends = scene.boxEnds;
    ivec4 boxes[BOXES] = ivec4[BOXES](scene.boxes[0], scene.boxes[1], scene.boxes[2]);
    uint group = gl_WorkGroupID.y * scene.groups.x + gl_WorkGroupID.x;
    if (group >= ends.z) {
        return;
    }
    uint box = group < ends.x ? 0u : group < ends.y ? 1u : 2u;
    uint boxStart = box == 0u ? 0u : box == 1u ? ends.x : ends.y;
    ivec4 b = boxes[box];
    uint local = group - boxStart;
    uint boxW = uint(b.z - b.x);
    ivec2 tile = b.xy + ivec2(local % boxW, local / boxW);
    for (uint j = 0u; j < box; j++) {
        ivec4 e = boxes[j];
        if (all(greaterThanEqual(tile, e.xy)) && all(lessThan(tile, e.zw))) {
            return;   // an earlier box's group owns this tile (uniform across the workgroup)
        }
    }
    ivec2 size = ivec2(scene.groups.zw);
    // This invocation's pixels: one column, ROWS rows down from `top`.
    // Strips down the tile: consecutive invocations go down a column (a subgroup of 32 spans 4 x 16 pixels at ROWS 2),
    // so x-dense shapes (plot segments, bars) meet fewer hits per subgroup.
    uint perColumn = TILE / ROWS;
    ivec2 top = tile * int(TILE) + ivec2(gl_LocalInvocationIndex / perColumn, (gl_LocalInvocationIndex % perColumn) * ROWS);
    vec4 color[ROWS];
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        color[p] = all(lessThan(px, size)) ? eightBits(imageLoad(target, px)) : vec4(0);
    }
    uint touched = 0u;
    compositeHud(top, size, color, touched);
    for (int p = 0; p < ROWS; p++) {
        ivec2 px = top + ivec2(0, p);
        if (all(lessThan(px, size))) {
            imageStore(target, px, color[p]);
        }
    }
}

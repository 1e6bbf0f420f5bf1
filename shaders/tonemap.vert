#version 460
// Auto-exposure, step 4 (vertex): one triangle that covers the whole viewport, with no vertex or index
// buffer. vkCmdDraw(cmd, 3, 1, 0, 0), no vertex input state, triangle list, cull mode NONE.
//
// gl_VertexIndex 0, 1, 2 -> uv (0, 0), (2, 0), (0, 2) -> clip (-1, -1), (3, -1), (-1, 3). The
// rasterizer clips it to the viewport, where uv runs over [0, 1]^2 with (0, 0) at the top-left corner
// (Vulkan's framebuffer y points down), the same orientation as texture coordinates.
//   out location 0: vec2 uv.
//   no descriptors, no push constants, no specialization constants.

layout(location = 0) out vec2 outUV;

void main() {
    const vec2 uv = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    outUV = uv;
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
}

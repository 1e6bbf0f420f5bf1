#version 460
// Probe: fills the HDR image with one colour (push constant) by imageStore, as a compute scene writes its target.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba16f) writeonly uniform image2D img;
layout(push_constant) uniform P { vec4 c; } pc;
void main() {
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(img)))) return;
    imageStore(img, p, pc.c);
}

#version 460
// graphcheck kernel: a storage image filled from a buffer: texel (x, y) = f(in[(x + y * width) % count]).
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { float v[]; } src;
layout(set = 0, binding = 1, rgba32f) writeonly uniform image2D dst;
layout(push_constant) uniform Push { uint count; uint width; uint height; float a; float c; } pc;
void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x < pc.width && p.y < pc.height) {
        uint i = (p.x + p.y * pc.width) % pc.count;
        imageStore(dst, ivec2(p), vec4(src.v[i], pc.a * src.v[(i + 1u) % pc.count], float(p.x) * 0.125, pc.c));
    }
}

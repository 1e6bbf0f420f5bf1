#version 460
// graphcheck kernel: a buffer computed from a storage image: out[i] = dot(texel(i % width, (i / width) % height), w) + c.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba32f) readonly uniform image2D src;
layout(std430, set = 0, binding = 1) writeonly buffer Out { float v[]; } dst;
layout(push_constant) uniform Push { uint count; uint width; uint height; float a; float c; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) {
        vec4 t = imageLoad(src, ivec2(i % pc.width, (i / pc.width) % pc.height));
        dst.v[i] = dot(t, vec4(pc.a, 0.5, 0.25, 1.0)) + pc.c;
    }
}

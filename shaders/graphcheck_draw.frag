#version 460
// graphcheck kernel: a fragment shader reading a storage buffer: colour = f(in[(x + y * 16) % count]).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, set = 0, binding = 0) readonly buffer In { float v[]; } src;
layout(push_constant) uniform Push { uint count; float a; float c; } pc;
void main() {
    uint i = (uint(gl_FragCoord.x) + uint(gl_FragCoord.y) * 16u) % pc.count;
    color = vec4(src.v[i], pc.a * src.v[(i + 3u) % pc.count], floor(uv.x * 64.0), pc.c);
}

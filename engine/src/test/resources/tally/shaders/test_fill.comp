#version 460
// Test kernel: data[i] = a + (i % 3) * b.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { float data[]; } outValues;
layout(push_constant) uniform Push { uint count; float a; float b; } pc;
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 64u) {
        outValues.data[i] = pc.a + float(i % 3u) * pc.b;
    }
}

#version 460
// Test kernel: keeps the GPU busy for a while (a long dependent chain per invocation), then writes
// the result so the work cannot be optimized away.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { float data[]; } outValues;
layout(push_constant) uniform Push { uint iterations; } pc;
void main() {
    float x = float(gl_GlobalInvocationID.x) * 1e-3;
    for (uint i = 0u; i < pc.iterations; i++) {
        x = fract(x * 1.61803 + 0.1234);
    }
    outValues.data[gl_GlobalInvocationID.x] = x;
}

#version 460
// Test kernel: keeps the GPU busy for a while. The value goes through memory on every iteration (a
// volatile buffer), so no compiler can shorten the loop: its cost grows with the iteration count.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) volatile buffer Out { float data[]; } values;
layout(push_constant) uniform Push { uint iterations; } pc;
void main() {
    uint i0 = gl_GlobalInvocationID.x;
    values.data[i0] = float(i0) * 1e-3;
    for (uint i = 0u; i < pc.iterations; i++) {
        values.data[i0] = fract(values.data[i0] * 1.61803 + 0.1234);
    }
}

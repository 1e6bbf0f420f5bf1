#version 460
// Baseline for benchmarks only: the textbook tree reduction. Scalar loads, a fixed 256-wide
// workgroup, a grid-stride loop, and a shared-memory tree with one barrier per level.
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Input { float data[]; } inValues;
layout(std430, set = 0, binding = 1) writeonly buffer Output { float data[]; } outValues;
layout(push_constant) uniform Push { uint count; uint outIndex; float divisor; } pc;

shared float tree[256];

void main() {
    const uint stride = gl_NumWorkGroups.x * 256u;
    float acc = 0.0;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        acc += inValues.data[i];
    }
    tree[gl_LocalInvocationIndex] = acc;
    memoryBarrierShared();
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (gl_LocalInvocationIndex < s) {
            tree[gl_LocalInvocationIndex] += tree[gl_LocalInvocationIndex + s];
        }
        memoryBarrierShared();
        barrier();
    }
    if (gl_LocalInvocationIndex == 0u) {
        outValues.data[pc.outIndex + gl_WorkGroupID.x] = tree[0] / pc.divisor;
    }
}

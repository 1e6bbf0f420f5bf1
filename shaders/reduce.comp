#version 460
// One kernel for both passes of a reduction: it folds `count` floats of binding 0 and writes one
// value per workgroup to binding 1 at `outIndex + workgroup`. The first pass runs G workgroups over the
// input (n -> G partials); the second runs one workgroup over the partials (G -> 1). It never knows
// which pass it is in. A grid-stride loop makes G independent of n.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint OP = 0u;
// vec4 loads issued per invocation per loop step: more loads in flight hide DRAM latency.
layout(constant_id = 2) const uint UNROLL = 2u;

#include "reduce_ops.glsl"

// The same binding seen as vec4 (16-byte loads for the bulk) and as float (the 0-3 trailing elements).
layout(std430, set = 0, binding = 0) readonly buffer InputVec4 { vec4 data[]; } inVec4;
layout(std430, set = 0, binding = 0) readonly buffer InputScalar { float data[]; } inScalar;
layout(std430, set = 0, binding = 1) writeonly buffer Output { float data[]; } outValues;

layout(push_constant) uniform Push {
    uint count;      // floats to fold from binding 0
    uint outIndex;   // where this dispatch's first result goes in binding 1
    float divisor;   // 1 for sum/min/max; n for the final pass of a mean
} pc;

shared float subgroupValues[gl_WorkGroupSize.x];
shared uint subgroupNaN[gl_WorkGroupSize.x];

void main() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint count4 = pc.count / 4u;

    // UNROLL independent vec4 accumulators: 4 x UNROLL partial results per invocation.
    vec4 acc[UNROLL];
    for (uint u = 0u; u < UNROLL; ++u) {
        acc[u] = vec4(opIdentity());
    }
    bool sawNaN = false;
    uint i = lane;
    for (; i + (UNROLL - 1u) * stride < count4; i += UNROLL * stride) {
        for (uint u = 0u; u < UNROLL; ++u) {
            vec4 v = inVec4.data[i + u * stride];
            if (OP != OP_SUM) sawNaN = sawNaN || anyNanBits(v);
            acc[u] = opCombine(acc[u], v);
        }
    }
    // At most UNROLL - 1 vec4 left for this invocation; a constant index keeps acc in registers.
    for (; i < count4; i += stride) {
        vec4 v = inVec4.data[i];
        if (OP != OP_SUM) sawNaN = sawNaN || anyNanBits(v);
        acc[0] = opCombine(acc[0], v);
    }
    const uint tail = pc.count - count4 * 4u;
    if (lane < tail) {
        float v = inScalar.data[count4 * 4u + lane];
        if (OP != OP_SUM) sawNaN = sawNaN || isNanBits(v);
        acc[0].x = opCombine(acc[0].x, v);
    }

    float value = opFold(acc[0]);
    for (uint u = 1u; u < UNROLL; ++u) {
        value = opCombine(value, opFold(acc[u]));
    }

    // In-workgroup step: subgroup arithmetic, then one value per subgroup through shared memory.
    // No subgroup size is assumed (8 on lavapipe, 32 on NVIDIA, 64 on AMD).
    value = opSubgroup(value);
    bool groupNaN = OP != OP_SUM && subgroupAny(sawNaN);
    if (subgroupElect()) {
        subgroupValues[gl_SubgroupID] = value;
        subgroupNaN[gl_SubgroupID] = groupNaN ? 1u : 0u;
    }
    memoryBarrierShared();
    barrier();
    if (gl_SubgroupID == 0u) {
        float v = opIdentity();
        uint nan = 0u;
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            v = opCombine(v, subgroupValues[s]);
            nan |= subgroupNaN[s];
        }
        v = opSubgroup(v);
        bool anyNaN = subgroupAny(nan != 0u);
        if (subgroupElect()) {
            outValues.data[pc.outIndex + gl_WorkGroupID.x] = (anyNaN ? CANONICAL_NAN : v) / pc.divisor;
        }
    }
}

#version 460
// One kernel for every reduction dispatch. It folds `count` floats of binding 0 to one value per
// workgroup. A grid-stride loop makes the group count independent of n.
//
// Two-pass (default for large n): the first dispatch runs G groups and writes G partials; the second
// runs one group over the partials (G -> 1). The kernel never knows which pass it is in.
//
// One-pass (ONE_PASS defined, small and medium n): each group writes its partial, then takes a ticket
// from an atomic counter; the group that draws the last ticket folds all partials in index order and
// resets the counter. No group ever waits for another (Vulkan promises no forward progress between
// workgroups), and the fixed fold order keeps the result bitwise deterministic.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint OP = 0u;
// vec4 loads issued per invocation per loop step: more loads in flight hide DRAM latency.
layout(constant_id = 2) const uint UNROLL = 2u;
// 0: grid-stride (invocations of all groups interleave); 1: blocked (each group reads one contiguous
// range, as CUB's even share of tiles does). Both visit every element once, in a fixed order.
layout(constant_id = 3) const uint BLOCKED = 0u;

#include "reduce_ops.glsl"

// The same binding seen as vec4 (16-byte loads for the bulk) and as float (the 0-3 trailing elements).
layout(std430, set = 0, binding = 0) readonly restrict buffer InputVec4 { vec4 data[]; } inVec4;
layout(std430, set = 0, binding = 0) readonly restrict buffer InputScalar { float data[]; } inScalar;
#ifdef ONE_PASS
layout(std430, set = 0, binding = 1) coherent buffer Partials { float data[]; } partials;
layout(std430, set = 0, binding = 2) writeonly buffer Output { float data[]; } outValues;
layout(std430, set = 0, binding = 3) coherent buffer Ticket { uint next; } ticket;
#else
layout(std430, set = 0, binding = 1) writeonly buffer Output { float data[]; } outValues;
#endif

layout(push_constant) uniform Push {
    uint count;      // floats to fold from binding 0
    uint outIndex;   // where this dispatch's first result goes in the output binding
    float divisor;   // 1 for sum/min/max; n for the final fold of a mean
} pc;

shared float subgroupValues[gl_WorkGroupSize.x];
shared uint subgroupNaN[gl_WorkGroupSize.x];
shared float groupValue;
shared bool lastGroup;

// Folds one value per invocation to one value per workgroup, left in `groupValue` for every
// invocation after the barrier. No subgroup size is assumed (8 on lavapipe, 32 on NVIDIA, 64 on AMD).
void workgroupFold(float value, bool sawNaN) {
    value = opSubgroup(value);
    bool nan = OP != OP_SUM && subgroupAny(sawNaN);
    if (subgroupElect()) {
        subgroupValues[gl_SubgroupID] = value;
        subgroupNaN[gl_SubgroupID] = nan ? 1u : 0u;
    }
    memoryBarrierShared();
    barrier();
    if (gl_SubgroupID == 0u) {
        float v = opIdentity();
        uint anyNaN = 0u;
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            v = opCombine(v, subgroupValues[s]);
            anyNaN |= subgroupNaN[s];
        }
        v = opSubgroup(v);
        bool nanHere = subgroupAny(anyNaN != 0u);
        if (subgroupElect()) {
            groupValue = nanHere ? CANONICAL_NAN : v;
        }
    }
    memoryBarrierShared();
    barrier();
}

void main() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint count4 = pc.count / 4u;
    // Grid-stride: start at the global index, step over all groups. Blocked: start at the group's
    // range, step over the group.
    const uint perGroup = (count4 + gl_NumWorkGroups.x - 1u) / gl_NumWorkGroups.x;
    const uint stride = BLOCKED != 0u ? gl_WorkGroupSize.x : gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint first = BLOCKED != 0u ? gl_WorkGroupID.x * perGroup + gl_LocalInvocationIndex : lane;
    const uint limit = BLOCKED != 0u ? min(count4, (gl_WorkGroupID.x + 1u) * perGroup) : count4;

    // UNROLL independent vec4 accumulators: 4 x UNROLL partial results per invocation.
    vec4 acc[UNROLL];
    for (uint u = 0u; u < UNROLL; ++u) {
        acc[u] = vec4(opIdentity());
    }
    bool sawNaN = false;
    uint i = first;
    for (; i + (UNROLL - 1u) * stride < limit; i += UNROLL * stride) {
        for (uint u = 0u; u < UNROLL; ++u) {
            vec4 v = inVec4.data[i + u * stride];
            if (OP != OP_SUM) sawNaN = sawNaN || anyNanBits(v);
            acc[u] = opCombine(acc[u], v);
        }
    }
    // At most UNROLL - 1 vec4 left for this invocation; a constant index keeps acc in registers.
    for (; i < limit; i += stride) {
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

    workgroupFold(value, sawNaN);

#ifndef ONE_PASS
    if (gl_LocalInvocationIndex == 0u) {
        outValues.data[pc.outIndex + gl_WorkGroupID.x] = groupValue / pc.divisor;
    }
#else
    if (gl_NumWorkGroups.x == 1u) {
        // A single group is trivially the last: no partial, no ticket.
        if (gl_LocalInvocationIndex == 0u) {
            outValues.data[pc.outIndex] = groupValue / pc.divisor;
        }
        return;
    }
    if (gl_LocalInvocationIndex == 0u) {
        partials.data[gl_WorkGroupID.x] = groupValue;
        // Release: the partial is visible device-wide before the ticket that announces it.
        memoryBarrierBuffer();
        lastGroup = atomicAdd(ticket.next, 1u) == gl_NumWorkGroups.x - 1u;
    }
    barrier();
    // Only the first subgroup of the last group folds: a strided read of the partials (a few hundred
    // at most) and one subgroup operation, with no workgroup barrier on this serial tail.
    if (!lastGroup || gl_SubgroupID != 0u) {
        return;
    }
    // Acquire: every other group's partial is visible once their tickets have been counted.
    memoryBarrierBuffer();
    float v = opIdentity();
    bool nan = false;
    for (uint g = gl_SubgroupInvocationID; g < gl_NumWorkGroups.x; g += gl_SubgroupSize) {
        float p = partials.data[g];
        if (OP != OP_SUM) nan = nan || isNanBits(p);
        v = opCombine(v, p);
    }
    v = opSubgroup(v);
    bool anyNaN = OP != OP_SUM && subgroupAny(nan);
    if (subgroupElect()) {
        outValues.data[pc.outIndex] = (anyNaN ? CANONICAL_NAN : v) / pc.divisor;
        ticket.next = 0u; // ready for the next dispatch
    }
#endif
}

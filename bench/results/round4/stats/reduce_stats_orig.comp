#version 460
// Statistics of f32 values in one read: count, sum, min, max, mean and (population) variance.
// Same dispatch shapes as reduce.comp: a grid-stride first pass writes one record per workgroup, then
// either a second dispatch (STATS_FOLD) or the last workgroup to finish (ONE_PASS, ticket pattern,
// no waiting between workgroups) folds the records in index order.
//
// Each invocation sums x - K and (x - K)^2 over its elements, K being the first element its workgroup
// reads (one shift for the whole group: with a grid-stride loop every invocation's elements span the
// whole array, so a per-invocation shift would be no nearer its data). Shifting by a value from the
// data keeps the squares from cancelling. A shared shift lets the group combine its invocations' sums
// with plain subgroup adds, min and max; the group then turns them into one record (n, mean, M2)
// (M2 = sum of squared deviations from the mean), and records merge with Chan et al.'s parallel update:
//   n = na + nb, d = mean_b - mean_a, mean = mean_a + d nb / n, M2 = M2a + M2b + d^2 na nb / n.
// Every merge happens in a fixed order (butterfly shuffles, strided loops in index order), so the same
// input gives the same bits on every run.
//
// Record (8 x 32 bits, both partials and result): count (uint), sum, min, max, mean, M2,
// variance = M2 / count, flags (bit 0: a NaN was seen; then sum, min, max, mean and variance are NaN).
// n = 0 gives count 0, sum 0, min +Inf, max -Inf, mean and variance NaN.
//
//   first pass / ONE_PASS: binding 0 the floats (read as vec4 + a scalar tail), push {count, outIndex}
//   first pass:  binding 1 records (one per workgroup, at outIndex + group)
//   ONE_PASS:    binding 1 records (coherent, one per group), 2 result record, 3 ticket (uint)
//   STATS_FOLD:  binding 0 records (count of them in push), binding 1 result record at outIndex
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint UNROLL = 2u;

struct Record {
    uint count;
    float sum;
    float minValue;
    float maxValue;
    float mean;
    float m2;
    float variance;
    uint flags;
};

#ifdef STATS_FOLD
layout(std430, set = 0, binding = 0) readonly restrict buffer InputRecords { Record data[]; } inRecords;
layout(std430, set = 0, binding = 1) writeonly buffer Output { Record data[]; } outRecords;
#else
layout(std430, set = 0, binding = 0) readonly restrict buffer InputVec4 { vec4 data[]; } inVec4;
layout(std430, set = 0, binding = 0) readonly restrict buffer InputScalar { float data[]; } inScalar;
#ifdef ONE_PASS
layout(std430, set = 0, binding = 1) coherent buffer Partials { Record data[]; } partials;
layout(std430, set = 0, binding = 2) writeonly buffer Output { Record data[]; } outRecords;
layout(std430, set = 0, binding = 3) coherent buffer Ticket { uint next; } ticket;
#else
layout(std430, set = 0, binding = 1) writeonly buffer Output { Record data[]; } outRecords;
#endif
#endif

layout(push_constant) uniform Push {
    uint count;      // floats (or records, STATS_FOLD) to fold from binding 0
    uint outIndex;   // where this dispatch's first record goes
} pc;

#define POS_INF uintBitsToFloat(0x7f800000u)
#define NEG_INF uintBitsToFloat(0xff800000u)
#define CANONICAL_NAN uintBitsToFloat(0x7fc00000u)

Record emptyRecord() {
    return Record(0u, 0.0, POS_INF, NEG_INF, 0.0, 0.0, 0.0, 0u);
}

// Chan's update; a record with no elements is the identity.
Record merge(Record a, Record b) {
    if (b.count == 0u) {
        return Record(a.count, a.sum, a.minValue, a.maxValue, a.mean, a.m2, a.variance, a.flags | b.flags);
    }
    if (a.count == 0u) {
        return Record(b.count, b.sum, b.minValue, b.maxValue, b.mean, b.m2, b.variance, a.flags | b.flags);
    }
    const uint n = a.count + b.count;
    precise float delta = b.mean - a.mean;
    precise float fractionB = float(b.count) / float(n);
    precise float mean = a.mean + delta * fractionB;
    precise float m2 = (a.m2 + b.m2) + delta * delta * float(a.count) * fractionB;
    precise float sum = a.sum + b.sum;
    return Record(n, sum, min(a.minValue, b.minValue), max(a.maxValue, b.maxValue), mean, m2, 0.0, a.flags | b.flags);
}

Record shuffleXor(Record r, uint mask) {
    return Record(subgroupShuffleXor(r.count, mask), subgroupShuffleXor(r.sum, mask), subgroupShuffleXor(r.minValue, mask),
                  subgroupShuffleXor(r.maxValue, mask), subgroupShuffleXor(r.mean, mask), subgroupShuffleXor(r.m2, mask),
                  0.0, subgroupShuffleXor(r.flags, mask));
}

// Butterfly over the whole subgroup (every lane active); the lower lane of each pair always comes
// first, so lane 0's result has a fixed association order.
Record subgroupMerge(Record r) {
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        Record other = shuffleXor(r, mask);
        r = (gl_SubgroupInvocationID & mask) == 0u ? merge(r, other) : merge(other, r);
    }
    return r;
}

bool isNanBits(float x) {
    return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u;
}

Record finished(Record r) {
    r.variance = r.count == 0u ? CANONICAL_NAN : r.m2 / float(r.count);
    if (r.count == 0u) {
        r.mean = CANONICAL_NAN;
    }
    if ((r.flags & 1u) != 0u) {
        r.sum = CANONICAL_NAN;
        r.minValue = CANONICAL_NAN;
        r.maxValue = CANONICAL_NAN;
        r.mean = CANONICAL_NAN;
        r.variance = CANONICAL_NAN;
    }
    return r;
}

// One slot per subgroup; the engine requires subgroups of at least 4 invocations.
shared Record subgroupRecords[gl_WorkGroupSize.x / 4u];
shared Record groupRecord;
shared bool lastGroup;

// One record per invocation to one per workgroup, left in groupRecord for every invocation.
void workgroupMerge(Record r) {
    r = subgroupMerge(r);
    if (gl_SubgroupInvocationID == 0u) {
        subgroupRecords[gl_SubgroupID] = r;
    }
    memoryBarrierShared();
    barrier();
    if (gl_SubgroupID == 0u) {
        Record v = emptyRecord();
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            v = merge(v, subgroupRecords[s]);
        }
        v = subgroupMerge(v);
        if (gl_SubgroupInvocationID == 0u) {
            groupRecord = v;
        }
    }
    memoryBarrierShared();
    barrier();
}

#ifndef STATS_FOLD
// Sums of one subgroup's invocations, in subgroupSums[gl_SubgroupID].
struct Sums {
    uint count;
    float shifted;   // sum of x - K
    float squares;   // sum of (x - K)^2
    float minValue;
    float maxValue;
    uint flags;
};
shared Sums subgroupSums[gl_WorkGroupSize.x / 4u];

// This workgroup's elements as one record, summed about the first element the group reads.
Record groupSumsRecord() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint count4 = pc.count / 4u;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint groupLane = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    float shift = 0.0;
    if (groupLane < count4) {
        shift = inVec4.data[groupLane].x;
    } else if (groupLane < pc.count - count4 * 4u) {
        shift = inScalar.data[count4 * 4u + groupLane];
    }
    // Scalar accumulators (the four lanes of each vec4 are folded as they arrive): 4 registers per
    // unrolled load instead of 16, so the kernel stays at the sum's occupancy and its plan (groups
    // sized for that many resident per SM) still fits in one wave.
    float s[UNROLL];
    float q[UNROLL];
    float lo[UNROLL];
    float hi[UNROLL];
    for (uint u = 0u; u < UNROLL; ++u) {
        s[u] = 0.0;
        q[u] = 0.0;
        lo[u] = POS_INF;
        hi[u] = NEG_INF;
    }
    bool nan = false;
    uint n = 0u;
    uint i = lane;
    for (; i + (UNROLL - 1u) * stride < count4; i += UNROLL * stride) {
        for (uint u = 0u; u < UNROLL; ++u) {
            const vec4 v = inVec4.data[i + u * stride];
            nan = nan || any(greaterThan(floatBitsToUint(v) & uvec4(0x7fffffffu), uvec4(0x7f800000u)));
            const vec4 d = v - shift;
            s[u] += (d.x + d.y) + (d.z + d.w);
            q[u] = fma(d.w, d.w, fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, q[u]))));
            lo[u] = min(lo[u], min(min(v.x, v.y), min(v.z, v.w)));
            hi[u] = max(hi[u], max(max(v.x, v.y), max(v.z, v.w)));
        }
        n += 4u * UNROLL;
    }
    for (; i < count4; i += stride) {
        const vec4 v = inVec4.data[i];
        nan = nan || any(greaterThan(floatBitsToUint(v) & uvec4(0x7fffffffu), uvec4(0x7f800000u)));
        const vec4 d = v - shift;
        s[0] += (d.x + d.y) + (d.z + d.w);
        q[0] = fma(d.w, d.w, fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, q[0]))));
        lo[0] = min(lo[0], min(min(v.x, v.y), min(v.z, v.w)));
        hi[0] = max(hi[0], max(max(v.x, v.y), max(v.z, v.w)));
        n += 4u;
    }
    const uint tail = pc.count - count4 * 4u;
    if (lane < tail) {
        const float v = inScalar.data[count4 * 4u + lane];
        nan = nan || isNanBits(v);
        const float d = v - shift;
        s[0] += d;
        q[0] = fma(d, d, q[0]);
        lo[0] = min(lo[0], v);
        hi[0] = max(hi[0], v);
        n += 1u;
    }
    precise float sumD = s[0];
    precise float sumQ = q[0];
    float low = lo[0];
    float high = hi[0];
    for (uint u = 1u; u < UNROLL; ++u) {
        sumD += s[u];
        sumQ += q[u];
        low = min(low, lo[u]);
        high = max(high, hi[u]);
    }
    // Subgroup, then workgroup: integer counts and flags, float sums in the hardware's fixed order.
    const uint subN = subgroupAdd(n);
    const float subS = subgroupAdd(sumD);
    const float subQ = subgroupAdd(sumQ);
    const float subLo = subgroupMin(low);
    const float subHi = subgroupMax(high);
    const uint subNan = subgroupOr(nan ? 1u : 0u);
    if (subgroupElect()) {
        subgroupSums[gl_SubgroupID] = Sums(subN, subS, subQ, subLo, subHi, subNan);
    }
    memoryBarrierShared();
    barrier();
    Sums v = Sums(0u, 0.0, 0.0, POS_INF, NEG_INF, 0u);
    if (gl_SubgroupID == 0u) {
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            const Sums o = subgroupSums[s];
            v = Sums(v.count + o.count, v.shifted + o.shifted, v.squares + o.squares, min(v.minValue, o.minValue),
                     max(v.maxValue, o.maxValue), v.flags | o.flags);
        }
        v = Sums(subgroupAdd(v.count), subgroupAdd(v.shifted), subgroupAdd(v.squares), subgroupMin(v.minValue),
                 subgroupMax(v.maxValue), subgroupOr(v.flags));
    }
    if (v.count == 0u) {
        return Record(0u, 0.0, POS_INF, NEG_INF, 0.0, 0.0, 0.0, v.flags);
    }
    precise float meanD = v.shifted / float(v.count);
    precise float m2 = max(0.0, v.squares - v.shifted * meanD);
    precise float mean = shift + meanD;
    precise float sum = v.shifted + shift * float(v.count);
    return Record(v.count, sum, v.minValue, v.maxValue, mean, m2, 0.0, v.flags);
}
#endif

void main() {
#ifdef STATS_FOLD
    // One workgroup: each invocation merges records i, i + size, ... in order, then the group merges.
    Record r = emptyRecord();
    for (uint i = gl_LocalInvocationIndex; i < pc.count; i += gl_WorkGroupSize.x) {
        r = merge(r, inRecords.data[i]);
    }
    workgroupMerge(r);
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(groupRecord);
    }
#else
    {
        // Valid in subgroup 0 only; its first invocation publishes it to the group.
        const Record r = groupSumsRecord();
        if (gl_LocalInvocationIndex == 0u) {
            groupRecord = r;
        }
        memoryBarrierShared();
        barrier();
    }
#ifndef ONE_PASS
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex + gl_WorkGroupID.x] = groupRecord;
    }
#else
    if (gl_NumWorkGroups.x == 1u) {
        if (gl_LocalInvocationIndex == 0u) {
            outRecords.data[pc.outIndex] = finished(groupRecord);
        }
        return;
    }
    if (gl_LocalInvocationIndex == 0u) {
        partials.data[gl_WorkGroupID.x] = groupRecord;
        memoryBarrierBuffer();   // release: the record is visible before the ticket announces it
        lastGroup = atomicAdd(ticket.next, 1u) == gl_NumWorkGroups.x - 1u;
    }
    barrier();
    if (!lastGroup || gl_SubgroupID != 0u) {
        return;
    }
    memoryBarrierBuffer();   // acquire: every record counted by a ticket is visible
    Record v = emptyRecord();
    for (uint g = gl_SubgroupInvocationID; g < gl_NumWorkGroups.x; g += gl_SubgroupSize) {
        v = merge(v, partials.data[g]);
    }
    v = subgroupMerge(v);
    if (gl_SubgroupInvocationID == 0u) {
        outRecords.data[pc.outIndex] = finished(v);
        ticket.next = 0u;
    }
#endif
#endif
}

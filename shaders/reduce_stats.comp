#version 460
// Statistics of f32 values in one read: count, sum, min, max, mean and (population) variance.
// Same dispatch shapes as reduce.comp: a grid-stride first pass writes one record per workgroup, then
// either a second dispatch (STATS_FOLD) or the last workgroup to finish (ONE_PASS, ticket pattern,
// no waiting between workgroups) folds the records in index order.
//
// Each invocation sums x - K and (x - K)^2 over its elements, K being the first element its workgroup
// reads (one shift for the whole group: with a grid-stride loop every invocation's elements span the
// whole array, so a per-invocation shift would be no nearer its data). Shifting by a value from the
// data keeps the squares from cancelling. The group turns its sums into one record (n, mean, M2)
// (M2 = sum of squared deviations from the mean).
//
// Records fold about one reference M, the first record's mean (a grid-stride group samples the whole
// array, so M lies near the overall mean): record g adds n_g, n_g (mean_g - M) and
// M2_g + n_g (mean_g - M)^2, and then mean = M + D / n, M2 = Q - D^2 / n. All terms are plain sums, so
// the fold is one pass of additions with no division per step; the D^2 / n it subtracts is small next
// to Q unless record 0's mean sits far (relative to the spread) from the rest, which its grid-stride
// sample makes unlikely. At worst D^2 / n <= (n / n_0) M2 (as M2 >= n_0 (mean_0 - mean)^2): the
// cancellation is bounded by the number of records.
//
// Every sum has a fixed association order (xor butterflies, strided loops in index order), so the same
// input gives the same bits on every run. The butterflies carry all fields at once: each step's
// shuffles are independent, so a group's epilogue costs one butterfly's latency, not one per field.
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

// Sums about a shift: of one invocation's elements (first pass), or of records about the reference
// (fold, where total is the plain sum of x; the first pass rebuilds it from the shift instead).
struct Sums {
    uint count;
    float shifted;   // sum of x - K, or of n_g (mean_g - M)
    float squares;   // sum of (x - K)^2, or of M2_g + n_g (mean_g - M)^2
    float minValue;
    float maxValue;
    uint flags;
    float total;
};

#define EMPTY_SUMS Sums(0u, 0.0, 0.0, POS_INF, NEG_INF, 0u, 0.0)

// Over the subgroup, every field in one xor butterfly. Float addition commutes exactly, so both lanes
// of a pair get the same bits and every lane ends with the same, fixed-order result.
Sums subgroupSums(Sums v, const bool withTotal) {
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        const uint count = subgroupShuffleXor(v.count, mask);
        const float shifted = subgroupShuffleXor(v.shifted, mask);
        const float squares = subgroupShuffleXor(v.squares, mask);
        const float low = subgroupShuffleXor(v.minValue, mask);
        const float high = subgroupShuffleXor(v.maxValue, mask);
        const uint flags = subgroupShuffleXor(v.flags, mask);
        const float total = withTotal ? subgroupShuffleXor(v.total, mask) : 0.0;
        v.count += count;
        v.shifted += shifted;
        v.squares += squares;
        v.minValue = min(v.minValue, low);
        v.maxValue = max(v.maxValue, high);
        v.flags |= flags;
        v.total += total;
    }
    return v;
}

// One slot per subgroup; the engine requires subgroups of at least 4 invocations.
shared Sums subgroupPartial[gl_WorkGroupSize.x / 4u];

// Invocation sums to the group's, valid in subgroup 0.
Sums workgroupSums(Sums v, const bool withTotal) {
    v = subgroupSums(v, withTotal);
    if (gl_SubgroupInvocationID == 0u) {
        subgroupPartial[gl_SubgroupID] = v;
    }
    memoryBarrierShared();
    barrier();
    v = EMPTY_SUMS;
    if (gl_SubgroupID == 0u) {
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            const Sums o = subgroupPartial[s];
            v = Sums(v.count + o.count, v.shifted + o.shifted, v.squares + o.squares, min(v.minValue, o.minValue),
                     max(v.maxValue, o.maxValue), v.flags | o.flags, v.total + o.total);
        }
        v = subgroupSums(v, withTotal);
    }
    return v;
}

// Records first .. first + count - 1 to one, with every invocation of the group; valid in subgroup 0.
#ifdef STATS_FOLD
#define RECORD(g) inRecords.data[g]
#elif defined(ONE_PASS)
#define RECORD(g) partials.data[g]
#endif
#ifdef RECORD
Record foldRecords(uint count) {
    const Record first = RECORD(0);
    const float reference = count == 0u || first.count == 0u ? 0.0 : first.mean;
    Sums v = EMPTY_SUMS;
    for (uint g = gl_LocalInvocationIndex; g < count; g += gl_WorkGroupSize.x) {
        const Record r = RECORD(g);
        precise float offset = r.mean - reference;
        precise float shifted = float(r.count) * offset;
        precise float squares = r.m2 + shifted * offset;
        v = Sums(v.count + r.count, v.shifted + shifted, v.squares + squares, min(v.minValue, r.minValue),
                 max(v.maxValue, r.maxValue), v.flags | r.flags, v.total + r.sum);
    }
    v = workgroupSums(v, true);
    Record r = Record(v.count, v.total, v.minValue, v.maxValue, 0.0, 0.0, 0.0, v.flags);
    if (v.count != 0u) {
        precise float d = v.shifted / float(v.count);
        r.mean = reference + d;
        r.m2 = max(0.0, v.squares - v.shifted * d);
    }
    return r;
}
#endif

#ifndef STATS_FOLD
// This workgroup's elements as one record, summed about the first element the group reads; valid in
// subgroup 0.
Record groupRecord() {
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
    // Scalar accumulators per unrolled load (the four lanes of each vec4 are folded as they arrive).
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
    const Sums v = workgroupSums(Sums(n, sumD, sumQ, low, high, nan ? 1u : 0u, 0.0), false);
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

#ifdef ONE_PASS
shared bool lastGroup;
#endif

void main() {
#ifdef STATS_FOLD
    // One workgroup over all records.
    const Record r = foldRecords(pc.count);
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(r);
    }
#else
    // Only invocation 0 (in subgroup 0, where the record is valid) uses it: no shared copy.
    const Record mine = groupRecord();
#ifndef ONE_PASS
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex + gl_WorkGroupID.x] = mine;
    }
#else
    if (gl_NumWorkGroups.x == 1u) {
        if (gl_LocalInvocationIndex == 0u) {
            outRecords.data[pc.outIndex] = finished(mine);
        }
        return;
    }
    if (gl_LocalInvocationIndex == 0u) {
        partials.data[gl_WorkGroupID.x] = mine;
        memoryBarrierBuffer();   // release: the record is visible before the ticket announces it
        lastGroup = atomicAdd(ticket.next, 1u) == gl_NumWorkGroups.x - 1u;
    }
    barrier();
    if (!lastGroup) {
        return;
    }
    // The whole last group folds (one record per invocation at most), so the records are read at once.
    memoryBarrierBuffer();   // acquire: every record counted by a ticket is visible
    const Record r = foldRecords(gl_NumWorkGroups.x);
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(r);
        ticket.next = 0u;
    }
#endif
#endif
}

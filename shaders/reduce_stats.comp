#version 460
// Statistics of f32 values in one read: count, sum, min, max, mean and (population) variance.
// Same dispatch shapes as reduce.comp: a grid-stride first pass writes one record per workgroup, then
// either a second dispatch (STATS_FOLD) or the last workgroup to finish (ONE_PASS, ticket pattern,
// no waiting between workgroups) folds the records in index order.
//
// Accuracy on any order of the data, without a shift taken from the data (an outlier as the shift,
// the first element of sorted data or a lone large value, makes sums of squares about it cancel):
// - Each invocation keeps UNROLL running records, one per unrolled load. A vec4 is first reduced to
//   its own record (sum, mean, M2 of four values), then merged into the running one with Chan's
//   update: M2 += M2_4 + delta^2 * 4c / (c + 4), delta = mean_4 - mean, every term non-negative, so
//   nothing cancels. The running sum is a TwoSum pair (hi + lo: the rounding error of every addition
//   is kept, and hi alone stays +-Inf when finite values overflow, as the sum's does); M2 is a Kahan
//   pair. The one division per loop step (1 / (c + 4)) is shared by the unrolled loads.
// - Records are combined about a reference: each adds n, D = sum - n M (exact up to one rounding,
//   by fma) and Q = M2 + D^2 / n; then M2 = Q - D^2 / n. All of it is plain addition, so the
//   subgroup butterflies carry one field per shuffle with no division per step. The reference is a
//   record's own mean (lane 0's in a subgroup, subgroup 0's in a workgroup, record 0's in the fold),
//   which keeps the cancellation in Q - D^2 / n bounded by the number of records combined, not by n.
//   The sum is carried as a TwoSum pair through every level.
//
// Every sum has a fixed association order (xor butterflies, strided loops in index order), and
// TwoSum's error term is exact whichever operand comes first, so both lanes of a butterfly pair get
// the same bits: the same input gives the same bits on every run.
//
// Non-finite input follows the sum: a NaN makes sum, min, max, mean and variance NaN; +Inf (or -Inf)
// makes the sum and mean +Inf (-Inf) and the variance NaN (no spread about an infinite mean); +Inf
// with -Inf makes the sum, mean and variance NaN while min and max stay -Inf and +Inf. Finite values
// whose sum overflows give a sum and mean of +-Inf; squares beyond the f32 range give a variance of
// +Inf or NaN.
//
// Result record (8 x 32 bits): count (uint), sum, min, max, mean, M2, variance = M2 / count, flags
// (bit 0: a NaN was seen). n = 0 gives count 0, sum 0, min +Inf, max -Inf, mean and variance NaN.
// Partial record (one per workgroup, 8 x 32 bits): count, sum hi, sum lo, M2, min, max, unused, flags.
//
//   first pass / ONE_PASS: binding 0 the floats (read as vec4 + a scalar tail), push {count, outIndex}
//   first pass:  binding 1 partial records (one per workgroup, at outIndex + group)
//   ONE_PASS:    binding 1 partial records (coherent, one per group), 2 result record, 3 ticket (uint)
//   STATS_FOLD:  binding 0 partial records (count of them in push), binding 1 result record at outIndex
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

// n values: their sum as hi + lo, their M2, min, max and NaN flag.
struct Partial {
    uint count;
    float sumHi;
    float sumLo;
    float m2;
    float minValue;
    float maxValue;
    float unused;
    uint flags;
};

#ifdef STATS_FOLD
layout(std430, set = 0, binding = 0) readonly restrict buffer InputRecords { Partial data[]; } inRecords;
layout(std430, set = 0, binding = 1) writeonly buffer Output { Record data[]; } outRecords;
#else
layout(std430, set = 0, binding = 0) readonly restrict buffer InputVec4 { vec4 data[]; } inVec4;
layout(std430, set = 0, binding = 0) readonly restrict buffer InputScalar { float data[]; } inScalar;
#ifdef ONE_PASS
layout(std430, set = 0, binding = 1) coherent buffer Partials { Partial data[]; } partials;
layout(std430, set = 0, binding = 2) writeonly buffer Output { Record data[]; } outRecords;
layout(std430, set = 0, binding = 3) coherent buffer Ticket { uint next; } ticket;
#else
layout(std430, set = 0, binding = 1) writeonly buffer Output { Partial data[]; } outRecords;
#endif
#endif

layout(push_constant) uniform Push {
    uint count;      // floats (or records, STATS_FOLD) to fold from binding 0
    uint outIndex;   // where this dispatch's first record goes
} pc;

#define POS_INF uintBitsToFloat(0x7f800000u)
#define NEG_INF uintBitsToFloat(0xff800000u)
#define CANONICAL_NAN uintBitsToFloat(0x7fc00000u)
#define EMPTY_PARTIAL Partial(0u, 0.0, 0.0, 0.0, POS_INF, NEG_INF, 0.0, 0u)

bool isNanBits(float x) {
    return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u;
}

// a + b as hi + lo: hi the rounded sum, lo its exact rounding error plus both low parts (TwoSum).
vec2 pairAdd(float aHi, float aLo, float bHi, float bLo) {
    precise float s = aHi + bHi;
    precise float bb = s - aHi;
    precise float e = (aHi - (s - bb)) + (bHi - bb);
    precise float lo = e + (aLo + bLo);
    return vec2(s, lo);
}

float pairValue(float hi, float lo) {
    // An overflowed hi is the answer (its lo is NaN); otherwise the pair rounded once.
    return isinf(hi) || isnan(hi) ? hi : hi + lo;
}

// The mean of a record, or 0 for an empty one (a reference needs only be near the data).
float meanOf(Partial p) {
    return p.count == 0u ? 0.0 : pairValue(p.sumHi, p.sumLo) / float(p.count);
}

Record finished(Partial p) {
    Record r = Record(p.count, 0.0, p.minValue, p.maxValue, CANONICAL_NAN, p.m2, CANONICAL_NAN, p.flags);
    if (p.count == 0u) {
        return r;
    }
    const float n = float(p.count);
    const bool plusInf = p.maxValue == POS_INF;
    const bool minusInf = p.minValue == NEG_INF;
    if ((p.flags & 1u) != 0u) {
        r.sum = CANONICAL_NAN;
        r.minValue = CANONICAL_NAN;
        r.maxValue = CANONICAL_NAN;
    } else if (plusInf && minusInf) {
        r.sum = CANONICAL_NAN;
    } else if (plusInf || minusInf) {
        r.sum = plusInf ? POS_INF : NEG_INF;
        r.mean = r.sum;
    } else {
        r.sum = pairValue(p.sumHi, p.sumLo);
        if (isinf(p.sumHi) || isnan(p.sumHi)) {
            r.mean = p.sumHi;
        } else {
            // The mean from the pair: hi / n, then the remainder hi - n (hi / n) (exact by fma) and lo.
            precise float h = p.sumHi / n;
            precise float rest = fma(-h, n, p.sumHi) + p.sumLo;
            r.mean = h + rest / n;
        }
        r.variance = p.m2 / n;
    }
    return r;
}

// Records combined about a reference M: n, the sum pair, D = sum of (sum - n M), Q = sum of (M2 + D^2 / n).
struct About {
    uint count;
    float sumHi;
    float sumLo;
    float d;
    float q;
    float minValue;
    float maxValue;
    uint flags;
};

#define EMPTY_ABOUT About(0u, 0.0, 0.0, 0.0, 0.0, POS_INF, NEG_INF, 0u)

About about(Partial p, float reference) {
    if (p.count == 0u) {
        return About(0u, 0.0, 0.0, 0.0, 0.0, p.minValue, p.maxValue, p.flags);
    }
    const float n = float(p.count);
    precise float d = fma(-reference, n, p.sumHi) + p.sumLo;
    precise float q = p.m2 + d * (d / n);
    return About(p.count, p.sumHi, p.sumLo, d, q, p.minValue, p.maxValue, p.flags);
}

About combined(About a, About b) {
    const vec2 s = pairAdd(a.sumHi, a.sumLo, b.sumHi, b.sumLo);
    return About(a.count + b.count, s.x, s.y, a.d + b.d, a.q + b.q, min(a.minValue, b.minValue), max(a.maxValue, b.maxValue),
                 a.flags | b.flags);
}

Partial record(About a) {
    Partial p = Partial(a.count, a.sumHi, a.sumLo, 0.0, a.minValue, a.maxValue, 0.0, a.flags);
    if (a.count != 0u) {
        precise float dm = a.d / float(a.count);
        p.m2 = max(0.0, a.q - a.d * dm);
    }
    return p;
}

// Over the subgroup, every field in one xor butterfly; combined() is commutative bit for bit, so every
// lane ends with the same, fixed-order result.
About subgroupAbout(About v) {
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        About o;
        o.count = subgroupShuffleXor(v.count, mask);
        o.sumHi = subgroupShuffleXor(v.sumHi, mask);
        o.sumLo = subgroupShuffleXor(v.sumLo, mask);
        o.d = subgroupShuffleXor(v.d, mask);
        o.q = subgroupShuffleXor(v.q, mask);
        o.minValue = subgroupShuffleXor(v.minValue, mask);
        o.maxValue = subgroupShuffleXor(v.maxValue, mask);
        o.flags = subgroupShuffleXor(v.flags, mask);
        v = combined(v, o);
    }
    return v;
}

// One slot per subgroup; the engine requires subgroups of at least 4 invocations.
shared Partial subgroupRecords[gl_WorkGroupSize.x / 4u];

// This invocation's record to the subgroup's (about lane 0's mean), then to the workgroup's (about
// subgroup 0's); valid in subgroup 0.
Partial workgroupRecord(Partial mine) {
    const float laneReference = subgroupShuffle(meanOf(mine), 0u);
    const Partial sub = record(subgroupAbout(about(mine, laneReference)));
    if (gl_SubgroupInvocationID == 0u) {
        subgroupRecords[gl_SubgroupID] = sub;
    }
    memoryBarrierShared();
    barrier();
    Partial result = EMPTY_PARTIAL;
    if (gl_SubgroupID == 0u) {
        const float reference = meanOf(subgroupRecords[0]);
        About v = EMPTY_ABOUT;
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            v = combined(v, about(subgroupRecords[s], reference));
        }
        result = record(subgroupAbout(v));
    }
    return result;
}

// Records 0 .. count - 1 to one, with every invocation of the group, about record 0's mean; valid in subgroup 0.
#ifdef STATS_FOLD
#define RECORD(g) inRecords.data[g]
#elif defined(ONE_PASS)
#define RECORD(g) partials.data[g]
#endif
#ifdef RECORD
Partial foldRecords(uint count) {
    const float reference = count == 0u ? 0.0 : meanOf(RECORD(0));
    About v = EMPTY_ABOUT;
    for (uint g = gl_LocalInvocationIndex; g < count; g += gl_WorkGroupSize.x) {
        v = combined(v, about(RECORD(g), reference));
    }
    return workgroupRecord(record(v));
}
#endif

#ifndef STATS_FOLD
// One running record per unrolled load: the sum as a TwoSum pair, M2 as a Kahan pair (M2 = q - qc).
struct Running {
    float sumHi;
    float sumLo;
    float q;
    float qc;
    float lo;
    float hi;
};

// Merges k values (their sum, mean and M2) into a running record of c values; invC = 1 / c (0 for
// c = 0) and weight = c k / (c + k).
void merge(inout Running r, float sumNew, float meanNew, float m2New, float invC, float weight) {
    precise float delta = meanNew - (r.sumHi + r.sumLo) * invC;
    precise float term = fma(delta * delta, weight, m2New);
    const vec2 s = pairAdd(r.sumHi, r.sumLo, sumNew, 0.0);
    r.sumHi = s.x;
    r.sumLo = s.y;
    precise float y = term - r.qc;
    precise float t = r.q + y;
    r.qc = (t - r.q) - y;
    r.q = t;
}

void mergeVec4(inout Running r, vec4 v, float invC, float weight) {
    precise float s4 = (v.x + v.y) + (v.z + v.w);
    precise float m4 = s4 * 0.25;
    precise vec4 d = v - m4;
    precise float m2 = fma(d.w, d.w, fma(d.z, d.z, fma(d.y, d.y, d.x * d.x)));
    merge(r, s4, m4, m2, invC, weight);
    r.lo = min(r.lo, min(min(v.x, v.y), min(v.z, v.w)));
    r.hi = max(r.hi, max(max(v.x, v.y), max(v.z, v.w)));
}

// This workgroup's elements as one record; valid in subgroup 0.
Partial groupRecord() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint count4 = pc.count / 4u;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    Running run[UNROLL];
    for (uint u = 0u; u < UNROLL; ++u) {
        run[u] = Running(0.0, 0.0, 0.0, 0.0, POS_INF, NEG_INF);
    }
    bool nan = false;
    // Values merged into every slot so far (all slots step together), then into slot 0 alone.
    float c = 0.0;
    float invC = 0.0;
    uint i = lane;
    for (; i + (UNROLL - 1u) * stride < count4; i += UNROLL * stride) {
        const float invNext = 1.0 / (c + 4.0);
        const float weight = 4.0 * c * invNext;
        for (uint u = 0u; u < UNROLL; ++u) {
            const vec4 v = inVec4.data[i + u * stride];
            nan = nan || any(greaterThan(floatBitsToUint(v) & uvec4(0x7fffffffu), uvec4(0x7f800000u)));
            mergeVec4(run[u], v, invC, weight);
        }
        c += 4.0;
        invC = invNext;
    }
    const float others = c;
    for (; i < count4; i += stride) {
        const vec4 v = inVec4.data[i];
        nan = nan || any(greaterThan(floatBitsToUint(v) & uvec4(0x7fffffffu), uvec4(0x7f800000u)));
        mergeVec4(run[0], v, c == 0.0 ? 0.0 : 1.0 / c, 4.0 * c / (c + 4.0));
        c += 4.0;
    }
    const uint tail = pc.count - count4 * 4u;
    if (lane < tail) {
        const float v = inScalar.data[count4 * 4u + lane];
        nan = nan || isNanBits(v);
        merge(run[0], v, v, 0.0, c == 0.0 ? 0.0 : 1.0 / c, c / (c + 1.0));
        run[0].lo = min(run[0].lo, v);
        run[0].hi = max(run[0].hi, v);
        c += 1.0;
    }
    // The slots to one record, about slot 0's mean (slot 0 holds the most values).
    const uint flags = nan ? 1u : 0u;
    const Partial first = Partial(uint(c), run[0].sumHi, run[0].sumLo, run[0].q - run[0].qc, run[0].lo, run[0].hi, 0.0, flags);
    const float reference = meanOf(first);
    About v = about(first, reference);
    for (uint u = 1u; u < UNROLL; ++u) {
        v = combined(v, about(Partial(uint(others), run[u].sumHi, run[u].sumLo, run[u].q - run[u].qc, run[u].lo, run[u].hi, 0.0, 0u),
                              reference));
    }
    return workgroupRecord(record(v));
}
#endif

#ifdef ONE_PASS
shared bool lastGroup;
#endif

void main() {
#ifdef STATS_FOLD
    // One workgroup over all records.
    const Partial r = foldRecords(pc.count);
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(r);
    }
#else
    // Only invocation 0 (in subgroup 0, where the record is valid) uses it: no shared copy.
    const Partial mine = groupRecord();
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
    const Partial r = foldRecords(gl_NumWorkGroups.x);
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(r);
        ticket.next = 0u;
    }
#endif
#endif
}

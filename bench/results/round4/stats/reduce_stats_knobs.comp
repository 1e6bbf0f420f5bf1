#version 460
// Measurement copy of the statistics kernel with switches (defines) for the variants compared on the H200
// in round 4 (see README.md here). To time it again: copy it into TALLY_HOME/shaders and run
//   TALLY_HOME=DIR tally bench --only reduce --stats-variant NAME=reduce_stats_knobs.comp:DEFINE,DEFINE=VALUE
// Switches:
//   LEAN        one set of accumulators (s, q, min, max) per invocation, the UNROLL loads issued first,
//               NaN seen as the largest magnitude bits, counts computed from the loop bounds
//   PAR_FOLD    the last group folds the records with all its invocations (one record each) instead of
//               subgroup 0 walking them
//   FOLD_REF    records fold as plain sums about one reference (record 0's mean) instead of Chan merges
//   INV_SHIFT   (with LEAN) each invocation sums about the first element it reads (no separate load
//               ahead of the loop); sums move to the subgroup's and then the group's shift at the end
//   EPILOGUE=0..3 how a subgroup combines its sums (see subgroupCombine)
//   DIRECT      invocation 0 keeps the group's record in registers (no shared copy, one barrier fewer)
//   UNROLL_OVERRIDE=k  loads per step, whatever the specialization constant says
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint UNROLL_SPEC = 2u;
#ifdef UNROLL_OVERRIDE
const uint UNROLL = UNROLL_OVERRIDE;
#else
#define UNROLL UNROLL_SPEC
#endif

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
    uint count;
    uint outIndex;
} pc;

#define POS_INF uintBitsToFloat(0x7f800000u)
#define NEG_INF uintBitsToFloat(0xff800000u)
#define CANONICAL_NAN uintBitsToFloat(0x7fc00000u)

Record emptyRecord() {
    return Record(0u, 0.0, POS_INF, NEG_INF, 0.0, 0.0, 0.0, 0u);
}

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

shared Record subgroupRecords[gl_WorkGroupSize.x / 4u];
shared Record groupRecord;
shared bool lastGroup;

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

// Sums of one subgroup's invocations (main pass), or of its records about a reference (FOLD_REF).
struct Sums {
    uint count;
    float shifted;
    float squares;
    float minValue;
    float maxValue;
    uint flags;
    float total;     // sum of x (record folds only)
};
shared Sums subgroupSums[gl_WorkGroupSize.x / 4u];

#ifndef EPILOGUE
#define EPILOGUE 0
#endif
uint orderedKey(float x) {
    const uint b = floatBitsToUint(x);
    return b ^ ((b & 0x80000000u) != 0u ? 0xffffffffu : 0x80000000u);
}
float fromKey(uint k) {
    return uintBitsToFloat(k ^ ((k & 0x80000000u) != 0u ? 0x80000000u : 0xffffffffu));
}

// Every field over the subgroup. EPILOGUE 0: one subgroup operation per field; 1: one xor butterfly
// carrying every field; 2: integers (count, flags, min/max as ordered keys) through integer subgroup
// operations, floats through subgroupAdd; 3: integers as 2, floats in one butterfly.
Sums subgroupCombine(Sums v, const bool withTotal) {
#if EPILOGUE == 0
    v.count = subgroupAdd(v.count);
    v.shifted = subgroupAdd(v.shifted);
    v.squares = subgroupAdd(v.squares);
    v.minValue = subgroupMin(v.minValue);
    v.maxValue = subgroupMax(v.maxValue);
    v.flags = subgroupOr(v.flags);
    if (withTotal) {
        v.total = subgroupAdd(v.total);
    }
#elif EPILOGUE == 1
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        const uint c = subgroupShuffleXor(v.count, mask);
        const float a = subgroupShuffleXor(v.shifted, mask);
        const float b = subgroupShuffleXor(v.squares, mask);
        const float lo = subgroupShuffleXor(v.minValue, mask);
        const float hi = subgroupShuffleXor(v.maxValue, mask);
        const uint f = subgroupShuffleXor(v.flags, mask);
        const float t = withTotal ? subgroupShuffleXor(v.total, mask) : 0.0;
        v.count += c;
        v.shifted += a;
        v.squares += b;
        v.minValue = min(v.minValue, lo);
        v.maxValue = max(v.maxValue, hi);
        v.flags |= f;
        v.total += t;
    }
#else
    v.count = subgroupAdd(v.count);
    v.minValue = fromKey(subgroupMin(orderedKey(v.minValue)));
    v.maxValue = fromKey(subgroupMax(orderedKey(v.maxValue)));
    v.flags = subgroupOr(v.flags);
#if EPILOGUE == 2
    v.shifted = subgroupAdd(v.shifted);
    v.squares = subgroupAdd(v.squares);
    if (withTotal) {
        v.total = subgroupAdd(v.total);
    }
#else
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        const float a = subgroupShuffleXor(v.shifted, mask);
        const float b = subgroupShuffleXor(v.squares, mask);
        const float t = withTotal ? subgroupShuffleXor(v.total, mask) : 0.0;
        v.shifted += a;
        v.squares += b;
        v.total += t;
    }
#endif
#endif
    return v;
}

// Invocation sums to the group's, valid in subgroup 0 (in every invocation of it).
Sums workgroupSums(Sums v, const bool withTotal) {
    v = subgroupCombine(v, withTotal);
    if (subgroupElect()) {
        subgroupSums[gl_SubgroupID] = v;
    }
    memoryBarrierShared();
    barrier();
    v = Sums(0u, 0.0, 0.0, POS_INF, NEG_INF, 0u, 0.0);
    if (gl_SubgroupID == 0u) {
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            const Sums o = subgroupSums[s];
            v = Sums(v.count + o.count, v.shifted + o.shifted, v.squares + o.squares, min(v.minValue, o.minValue),
                     max(v.maxValue, o.maxValue), v.flags | o.flags, v.total + o.total);
        }
        v = subgroupCombine(v, withTotal);
    }
    return v;
}

#ifdef INV_SHIFT
shared float subgroupShifts[gl_WorkGroupSize.x / 4u];

// As workgroupSums, for sums about each subgroup's own shift: they move to subgroup 0's (left in groupShift).
Sums workgroupSumsShifted(Sums v, float subShift, out float groupShift) {
    v = subgroupCombine(v, false);
    if (subgroupElect()) {
        subgroupSums[gl_SubgroupID] = v;
        subgroupShifts[gl_SubgroupID] = subShift;
    }
    memoryBarrierShared();
    barrier();
    groupShift = subgroupShifts[0];
    v = Sums(0u, 0.0, 0.0, POS_INF, NEG_INF, 0u, 0.0);
    if (gl_SubgroupID == 0u) {
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
            Sums o = subgroupSums[s];
            if (o.count != 0u) {
                precise float d = subgroupShifts[s] - groupShift;
                precise float nd = float(o.count) * d;
                o.squares = o.squares + d * (2.0 * o.shifted + nd);
                o.shifted = o.shifted + nd;
            }
            v = Sums(v.count + o.count, v.shifted + o.shifted, v.squares + o.squares, min(v.minValue, o.minValue),
                     max(v.maxValue, o.maxValue), v.flags | o.flags, 0.0);
        }
        v = subgroupCombine(v, false);
    }
    return v;
}
#endif

#ifdef FOLD_REF
// Records to one, with every invocation of the group: each record becomes (n, n (mean - M), M2 + n (mean - M)^2)
// about M = the first record's mean, and those add. Result in groupRecord.
void foldRecordsAboutReference(uint count, Record first) {
    const float reference = first.count == 0u ? 0.0 : first.mean;
    Sums v = Sums(0u, 0.0, 0.0, POS_INF, NEG_INF, 0u, 0.0);
    for (uint g = gl_LocalInvocationIndex; g < count; g += gl_WorkGroupSize.x) {
#ifdef STATS_FOLD
        const Record r = inRecords.data[g];
#elif defined(ONE_PASS)
        const Record r = partials.data[g];
#else
        const Record r = emptyRecord();
#endif
        precise float offset = r.mean - reference;
        precise float shifted = float(r.count) * offset;
        v = Sums(v.count + r.count, v.shifted + shifted, v.squares + (r.m2 + shifted * offset), min(v.minValue, r.minValue),
                 max(v.maxValue, r.maxValue), v.flags | r.flags, v.total + r.sum);
    }
    v = workgroupSums(v, true);
    if (gl_LocalInvocationIndex == 0u) {
        Record r = Record(v.count, v.total, v.minValue, v.maxValue, 0.0, 0.0, 0.0, v.flags);
        if (v.count != 0u) {
            precise float d = v.shifted / float(v.count);
            r.mean = reference + d;
            r.m2 = max(0.0, v.squares - v.shifted * d);
        }
        groupRecord = r;
    }
#ifndef DIRECT
    memoryBarrierShared();
    barrier();
#endif
}
#endif

#ifndef STATS_FOLD
Record groupSumsRecord() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint count4 = pc.count / 4u;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint groupLane = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    float shift = 0.0;
#ifndef INV_SHIFT
    if (groupLane < count4) {
        shift = inVec4.data[groupLane].x;
    } else if (groupLane < pc.count - count4 * 4u) {
        shift = inScalar.data[count4 * 4u + groupLane];
    }
#endif
    const uint tail = pc.count - count4 * 4u;
#ifdef LEAN
    float s = 0.0;
    float q = 0.0;
    float low = POS_INF;
    float high = NEG_INF;
    uint magnitude = 0u;   // largest |x| bit pattern seen: above 0x7f800000 means a NaN
    uint i = lane;
    for (; i + (UNROLL - 1u) * stride < count4; i += UNROLL * stride) {
        vec4 v[UNROLL];
        for (uint u = 0u; u < UNROLL; ++u) {
            v[u] = inVec4.data[i + u * stride];
        }
#ifdef INV_SHIFT
        shift = i == lane ? v[0].x : shift;
#endif
        for (uint u = 0u; u < UNROLL; ++u) {
            const uvec4 m = floatBitsToUint(v[u]) & uvec4(0x7fffffffu);
            magnitude = max(magnitude, max(max(m.x, m.y), max(m.z, m.w)));
            const vec4 d = v[u] - shift;
            s += (d.x + d.y) + (d.z + d.w);
            q += fma(d.x, d.x, d.y * d.y) + fma(d.z, d.z, d.w * d.w);
            low = min(low, min(min(v[u].x, v[u].y), min(v[u].z, v[u].w)));
            high = max(high, max(max(v[u].x, v[u].y), max(v[u].z, v[u].w)));
        }
    }
    for (; i < count4; i += stride) {
        const vec4 v = inVec4.data[i];
#ifdef INV_SHIFT
        shift = i == lane ? v.x : shift;
#endif
        const uvec4 m = floatBitsToUint(v) & uvec4(0x7fffffffu);
        magnitude = max(magnitude, max(max(m.x, m.y), max(m.z, m.w)));
        const vec4 d = v - shift;
        s += (d.x + d.y) + (d.z + d.w);
        q += fma(d.x, d.x, d.y * d.y) + fma(d.z, d.z, d.w * d.w);
        low = min(low, min(min(v.x, v.y), min(v.z, v.w)));
        high = max(high, max(max(v.x, v.y), max(v.z, v.w)));
    }
    if (lane < tail) {
        const float v = inScalar.data[count4 * 4u + lane];
        magnitude = max(magnitude, floatBitsToUint(v) & 0x7fffffffu);
#ifdef INV_SHIFT
        shift = lane >= count4 ? v : shift;
#endif
        const float d = v - shift;
        s += d;
        q = fma(d, d, q);
        low = min(low, v);
        high = max(high, v);
    }
    const uint n = (lane < count4 ? 4u * ((count4 - 1u - lane) / stride + 1u) : 0u) + (lane < tail ? 1u : 0u);
#ifdef INV_SHIFT
    // Each invocation summed about its own first element; move the sums to the subgroup's first
    // invocation's shift, then (workgroupSumsShifted) to the group's: sum (x - K')^2 = Q + d (2 S + n d), d = K - K'.
    const float subShift = subgroupShuffle(shift, 0u);
    if (n != 0u) {
        precise float d = shift - subShift;
        precise float nd = float(n) * d;
        q = q + d * (2.0 * s + nd);
        s = s + nd;
    }
    const Sums v = workgroupSumsShifted(Sums(n, s, q, low, high, magnitude > 0x7f800000u ? 1u : 0u, 0.0), subShift, shift);
#else
    const Sums v = workgroupSums(Sums(n, s, q, low, high, magnitude > 0x7f800000u ? 1u : 0u, 0.0), false);
#endif
#else
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
#endif
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
#ifdef FOLD_REF
    foldRecordsAboutReference(pc.count, pc.count == 0u ? emptyRecord() : inRecords.data[0]);
#else
    Record r = emptyRecord();
    for (uint i = gl_LocalInvocationIndex; i < pc.count; i += gl_WorkGroupSize.x) {
        r = merge(r, inRecords.data[i]);
    }
    workgroupMerge(r);
#endif
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(groupRecord);
    }
#else
#ifdef DIRECT
    // Valid in subgroup 0; only invocation 0 uses it.
    const Record mine = groupSumsRecord();
#define GROUP_RECORD mine
#else
    {
        const Record r = groupSumsRecord();
        if (gl_LocalInvocationIndex == 0u) {
            groupRecord = r;
        }
        memoryBarrierShared();
        barrier();
    }
#define GROUP_RECORD groupRecord
#endif
#ifndef ONE_PASS
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex + gl_WorkGroupID.x] = GROUP_RECORD;
    }
#else
    if (gl_NumWorkGroups.x == 1u) {
        if (gl_LocalInvocationIndex == 0u) {
            outRecords.data[pc.outIndex] = finished(GROUP_RECORD);
        }
        return;
    }
    if (gl_LocalInvocationIndex == 0u) {
        partials.data[gl_WorkGroupID.x] = GROUP_RECORD;
        memoryBarrierBuffer();
        lastGroup = atomicAdd(ticket.next, 1u) == gl_NumWorkGroups.x - 1u;
    }
    barrier();
#if defined(PAR_FOLD) || defined(FOLD_REF)
    if (!lastGroup) {
        return;
    }
    memoryBarrierBuffer();
#ifdef FOLD_REF
    foldRecordsAboutReference(gl_NumWorkGroups.x, partials.data[0]);
#else
    Record v = emptyRecord();
    for (uint g = gl_LocalInvocationIndex; g < gl_NumWorkGroups.x; g += gl_WorkGroupSize.x) {
        v = merge(v, partials.data[g]);
    }
    workgroupMerge(v);
#endif
    if (gl_LocalInvocationIndex == 0u) {
        outRecords.data[pc.outIndex] = finished(groupRecord);
        ticket.next = 0u;
    }
#else
    if (!lastGroup || gl_SubgroupID != 0u) {
        return;
    }
    memoryBarrierBuffer();
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
#endif
}

#version 460
// Statistics of f32 values in one read: count, sum, min, max, mean and (population) variance.
// An invocation's sums about its shift K go into the subgroup's butterfly about lane 0's shift K0
// directly, with delta = K - K0:
//   D = S1 + n delta, Q = S2 + delta (2 S1 + n delta)   (= n (mean - K0) and M2 + n (mean - K0)^2)
// so no invocation forms its own mean and M2 (two divisions, a TwoProduct); the subgroup forms one
// record (one division) from the butterfly's result. K0 is one of the subgroup's elements, so the
// cancellation in Q - D^2 / N is bounded by the subgroup's count; equal values give delta = 0,
// D = Q = 0 and a variance of exactly 0.
// - min and max go through the subgroup as order-preserving uint keys (subgroupMin/Max on uint, one
//   hardware reduction on devices that have one) instead of float butterflies; -0 orders below +0.
// - The fold takes every record about one reference (record 0's mean) at both levels: no record is
//   turned back into (mean, M2) between them, and the subgroups that hold no record skip their butterfly.
// - LOADS (define, default 4) vec4 loads per step; BLOCK_STEPS (define, default 8) steps per block.
// - The workgroup size is the engine's (spec constant 0; the reducer gives this kernel at most 512,
//   since it holds more registers than the sum and 1024-wide groups would halve the resident groups),
//   or GROUP_SIZE (define) for measurements; the grid stride follows gl_WorkGroupSize, so any size
//   covers the input. For one group of at most subgroup x 32 floats the reducer runs a small pipeline:
//   ONE_PASS with LOADS 8 in a workgroup of one subgroup, which skips the round through shared memory.
// Same dispatch shapes as reduce.comp: a grid-stride first pass writes one record per workgroup, then
// either a second dispatch (STATS_FOLD) or the last workgroup to finish (ONE_PASS, ticket pattern,
// no waiting between workgroups) folds the records in index order.
//
// Each invocation sums its values about a shift K taken from its own elements: d = x - K, with
// S1 = sum d and S2 = sum d^2 (plain sums, no division or data-dependent branch per element), then
// turns them once into a record (n, mean, M2, sum) with M2 = S2 - S1^2 / n in double-float. K is the
// first finite element of the invocation's middle vec4, and the loop starts there (middle to end, then
// start to middle), so K costs no extra read. With K one of its own elements, S2 <= (n + 1) M2: the
// cancellation is bounded by the invocation's count, and the middle element (the median of sorted
// data, a typical value of anything else) keeps it near 1 where a first element would be an outlier
// (the largest of sorted data, a lone large value). Constant input gives d = 0 exactly, so the
// variance is exactly 0. Per vec4: d = v - K, its sum and fma sum of squares, each added to a Kahan
// pair per unrolled load; min and max per lane.
// - Records combine about a reference mean as plain sums (see About below), the sum carried as a
//   TwoSum pair; the divisions are per level (a handful), never per element or per butterfly step.
//
// Every merge has a fixed order (xor butterflies, strided loops in index order), so the same input
// gives the same bits on every run.
//
// Non-finite input follows the sum: a NaN makes sum, min, max, mean and variance NaN; +Inf (or -Inf)
// makes the sum and mean +Inf (-Inf) and the variance NaN (no spread about an infinite mean); +Inf
// with -Inf makes the sum, mean and variance NaN while min and max stay -Inf and +Inf. A NaN is seen
// through the sums of squares: d^2 >= 0, so they are NaN only when a value is (an infinity gives
// +Inf). Finite values whose sum overflows give a sum and mean of +-Inf; squares (or differences from
// K) beyond the f32 range give a variance of +Inf or NaN.
//
// Result record (8 x 32 bits): count (uint), sum, min, max, mean, M2, variance = M2 / count, flags
// (bit 0: a NaN was seen). n = 0 gives count 0, sum 0, min +Inf, max -Inf, mean and variance NaN.
// Partial record (one per workgroup, 8 x 32 bits): count, sum hi, sum lo, M2, min, max, mean, flags.
//
//   first pass / ONE_PASS: binding 0 the floats (read as vec4 + a scalar tail), push {count, outIndex}
//   first pass:  binding 1 partial records (one per workgroup, at outIndex + group)
//   ONE_PASS:    binding 1 partial records (coherent, one per group), 2 result record, 3 ticket (uint)
//   STATS_FOLD:  binding 0 partial records (count of them in push), binding 1 result record at outIndex
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

#ifdef GROUP_SIZE
layout(local_size_x = GROUP_SIZE) in;
#else
layout(local_size_x_id = 0) in;
#endif
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

// n values: their sum as hi + lo, their M2 (about their mean), min, max, mean and NaN flag.
struct Partial {
    uint count;
    float sumHi;
    float sumLo;
    float m2;
    float minValue;
    float maxValue;
    float mean;
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

// The mean of a record, or 0 for an empty one (a reference needs only be near the data).
float meanOf(Partial p) {
    return p.count == 0u ? 0.0 : p.mean;
}

// Records combined about a reference M: n, the sum pair, D = sum of n (mean - M), Q = sum of
// (M2 + n (mean - M)^2). Plain sums, so the butterflies carry one field per shuffle with no division
// per step; then M2 = Q - D^2 / n. The reference is a record's own mean (lane 0's in a subgroup,
// subgroup 0's in a workgroup, record 0's in the fold), which bounds the cancellation in Q - D^2 / n
// by the number of records combined, not by n; equal means give D = 0 and Q = M2 exactly.
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
    precise float offset = p.mean - reference;
    precise float d = float(p.count) * offset;
    precise float q = fma(d, offset, p.m2);
    return About(p.count, p.sumHi, p.sumLo, d, q, p.minValue, p.maxValue, p.flags);
}

About combined(About a, About b) {
    const vec2 s = pairAdd(a.sumHi, a.sumLo, b.sumHi, b.sumLo);
    return About(a.count + b.count, s.x, s.y, a.d + b.d, a.q + b.q, min(a.minValue, b.minValue), max(a.maxValue, b.maxValue),
                 a.flags | b.flags);
}

Partial record(About a, float reference) {
    Partial p = Partial(a.count, a.sumHi, a.sumLo, 0.0, a.minValue, a.maxValue, 0.0, a.flags);
    if (a.count != 0u) {
        precise float dm = a.d / float(a.count);
        p.m2 = max(0.0, a.q - a.d * dm);
        p.mean = reference + dm;
    }
    return p;
}

// A float's bits as a uint that orders as the float does (-Inf < ... < -0 < +0 < ... < +Inf); NaNs land
// beyond the infinities, and a NaN's flag overrides min and max anyway.
uint orderedKey(float x) {
    const uint b = floatBitsToUint(x);
    return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

float fromOrderedKey(uint k) {
    return uintBitsToFloat((k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k);
}

// Over the subgroup: the float fields in one xor butterfly (TwoSum and plain adds commute bit for bit, so
// every lane ends with the same, fixed-order result); count, min, max and flags by subgroup arithmetic,
// exact whatever order it takes.
About subgroupAboutLanes(About v, uint lanes) {
    for (uint mask = 1u; mask < lanes; mask <<= 1u) {
        const float sumHi = subgroupShuffleXor(v.sumHi, mask);
        const float sumLo = subgroupShuffleXor(v.sumLo, mask);
        const float d = subgroupShuffleXor(v.d, mask);
        const float q = subgroupShuffleXor(v.q, mask);
        const vec2 s = pairAdd(v.sumHi, v.sumLo, sumHi, sumLo);
        v.sumHi = s.x;
        v.sumLo = s.y;
        v.d += d;
        v.q += q;
    }
    v.count = subgroupAdd(v.count);
    v.minValue = fromOrderedKey(subgroupMin(orderedKey(v.minValue)));
    v.maxValue = fromOrderedKey(subgroupMax(orderedKey(v.maxValue)));
    v.flags = subgroupOr(v.flags);
    return v;
}

About subgroupAbout(About v) {
    return subgroupAboutLanes(v, gl_SubgroupSize);
}

// The smallest power of two >= k (k >= 1), at most the subgroup size.
uint lanesFor(uint k) {
#ifdef SHORT_BUTTERFLY
    return min(gl_SubgroupSize, 1u << findMSB(max(k, 1u) * 2u - 1u));
#else
    return gl_SubgroupSize;
#endif
}

// One slot per subgroup; the engine requires subgroups of at least 4 invocations.
shared Partial subgroupRecords[gl_WorkGroupSize.x / 4u];

// The subgroups' records to the workgroup's (about subgroup 0's mean); valid in subgroup 0.
Partial workgroupRecord(Partial sub) {
    if (gl_NumSubgroups == 1u) {
        return sub;   // one subgroup (the small pipeline): its record is the workgroup's, no round through shared memory
    }
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
        result = record(subgroupAboutLanes(v, lanesFor(gl_NumSubgroups)), reference);
    }
    return result;
}

#ifdef STATS_FOLD
#define RECORD(g) inRecords.data[g]
#elif defined(ONE_PASS)
#define RECORD(g) partials.data[g]
#endif
#ifdef RECORD
// Records 0 .. count - 1 about record 0's mean at every level: each invocation's records (one in a
// one-pass fold), then each subgroup's, then subgroup 0 over the subgroups' (kept in About form in the
// shared slots: count, sum hi, sum lo, D, min, max, Q, flags), and one record() at the end.
Partial foldRecords(uint count) {
    const float reference = count == 0u ? 0.0 : meanOf(RECORD(0));
    About v = EMPTY_ABOUT;
    for (uint g = gl_LocalInvocationIndex; g < count; g += gl_WorkGroupSize.x) {
        v = combined(v, about(RECORD(g), reference));
    }
    // The same for every invocation of a subgroup, so the butterfly below runs in whole subgroups.
    const uint used = (min(count, gl_WorkGroupSize.x) + gl_SubgroupSize - 1u) / gl_SubgroupSize;
    if (used <= 1u) {
        // Subgroup 0 holds every record (uniform across the workgroup): one butterfly, no shared round.
        return gl_SubgroupID == 0u ? record(subgroupAbout(v), reference) : EMPTY_PARTIAL;
    }
    if (gl_SubgroupID < used) {
        const About sub = subgroupAbout(v);
        if (gl_SubgroupInvocationID == 0u) {
            subgroupRecords[gl_SubgroupID] = Partial(sub.count, sub.sumHi, sub.sumLo, sub.d, sub.minValue, sub.maxValue, sub.q, sub.flags);
        }
    }
    memoryBarrierShared();
    barrier();
    Partial result = EMPTY_PARTIAL;
    if (gl_SubgroupID == 0u) {
        About w = EMPTY_ABOUT;
        for (uint s = gl_SubgroupInvocationID; s < used; s += gl_SubgroupSize) {
            const Partial p = subgroupRecords[s];
            w = combined(w, About(p.count, p.sumHi, p.sumLo, p.m2, p.mean, p.minValue, p.maxValue, p.flags));
        }
        result = record(subgroupAboutLanes(w, lanesFor(used)), reference);
    }
    return result;
}

#ifdef FOLD_SUBGROUP
#ifndef FOLD_BATCH
#define FOLD_BATCH 1
#endif
// Subgroup 0 alone: each lane its records lane, lane + S, ... (FOLD_BATCH loads at once), one butterfly, no barrier.
Partial foldRecordsSubgroup(uint count) {
    const float reference = count == 0u ? 0.0 : meanOf(RECORD(0));
    About v = EMPTY_ABOUT;
    const uint S = gl_SubgroupSize;
    for (uint g = gl_SubgroupInvocationID; g < count; g += FOLD_BATCH * S) {
        Partial p[FOLD_BATCH];
        [[unroll]] for (uint k = 0u; k < FOLD_BATCH; ++k) {
            p[k] = g + k * S < count ? RECORD(g + k * S) : EMPTY_PARTIAL;
        }
        [[unroll]] for (uint k = 0u; k < FOLD_BATCH; ++k) {
            v = combined(v, about(p[k], reference));
        }
    }
    return record(subgroupAbout(v), reference);
}
#endif
#endif

#ifndef STATS_FOLD
bool isFiniteBits(float x) {
    return (floatBitsToUint(x) & 0x7fffffffu) < 0x7f800000u;
}

// The shift: the first finite lane of v, else 0 (then the statistics are non-finite anyway).
float firstFinite(vec4 v) {
    return isFiniteBits(v.x) ? v.x : isFiniteBits(v.y) ? v.y : isFiniteBits(v.z) ? v.z : isFiniteBits(v.w) ? v.w : 0.0;
}

void kahanAdd(inout float s, inout float c, float x) {
    precise float y = x - c;
    precise float t = s + y;
    c = (t - s) - y;
    s = t;
}

#ifndef LOADS
#define LOADS 4
#endif
const uint STEP_LOADS = LOADS;
#ifndef BLOCK_STEPS
#define BLOCK_STEPS 8
#endif
// Up to this many steps an invocation loads in padded rounds, every load of a round at once (small inputs: the
// loads' latency is the time); above it, in its ranges with no padding (large inputs: bandwidth is). H200: 2^16
// floats 7.87 -> 6.56 us in rounds, 2^24 22.10 -> 22.59 us (so not there).
#ifndef FEW_STEPS
#define FEW_STEPS (2u * STEP_LOADS)
#endif

// One vec4 into load u's block sums: d = v - K, b1 += sum of d, b2 += d^2 lane by lane (fma), min and max.
// A vec4 past the invocation's steps (`valid` false) is the middle's vec4 loaded again: d = 0 in the sums, and
// min and max see an element they have already seen. A macro, so the accumulators stay local arrays indexed by constants.
#define ADD_VEC4(u, value, valid) { \
        const vec4 v_ = (value); \
        precise vec4 d_ = (valid) ? v_ - shift : vec4(0.0); \
        precise float b1_ = b1[u] + ((d_.x + d_.y) + (d_.z + d_.w)); \
        precise float b2_ = fma(d_.w, d_.w, fma(d_.z, d_.z, fma(d_.y, d_.y, fma(d_.x, d_.x, b2[u])))); \
        b1[u] = b1_; \
        b2[u] = b2_; \
        lo = min(lo, min(min(v_.x, v_.y), min(v_.z, v_.w))); \
        hi = max(hi, max(max(v_.x, v_.y), max(v_.z, v_.w))); \
    }

// The block's sums into the Kahan pairs (loads in index order), then cleared.
#define FLUSH_BLOCK() { \
        precise float t1_ = b1[0]; \
        precise float t2_ = b2[0]; \
        for (uint u_ = 1u; u_ < STEP_LOADS; ++u_) { \
            t1_ += b1[u_]; \
            t2_ += b2[u_]; \
        } \
        nan = nan || isNanBits(t2_); \
        kahanAdd(s1, c1, t1_); \
        kahanAdd(s2, c2, t2_); \
        for (uint u_ = 0u; u_ < STEP_LOADS; ++u_) { \
            b1[u_] = 0.0; \
            b2[u_] = 0.0; \
        } \
    }

// The invocation's vec4 indices lane + k stride for k in [from, to): blocks of BLOCK_STEPS steps of
// STEP_LOADS loads (the range's last block may be shorter, its odd loads on load 0's sums).
#define ADD_RANGE(from, to) { \
        uint k_ = (from); \
        while (k_ < (to)) { \
            const uint end_ = min((to), k_ + BLOCK_STEPS * STEP_LOADS); \
            for (; k_ + STEP_LOADS <= end_; k_ += STEP_LOADS) { \
                for (uint u_ = 0u; u_ < STEP_LOADS; ++u_) { \
                    ADD_VEC4(u_, inVec4.data[lane + (k_ + u_) * stride], true) \
                } \
            } \
            for (; k_ < end_; ++k_) { \
                ADD_VEC4(0u, inVec4.data[lane + k_ * stride], true) \
            } \
            FLUSH_BLOCK() \
        } \
    }

// Few steps (at most FEW_STEPS): round r's STEP_LOADS vec4s, all loaded before any is added (one wait per round, not per load). The
// invocation's steps are taken from the middle on and round to the start: step j is vec4 index
// lane + ((middle + j) mod steps) stride. A step past the end loads the middle's vec4 again (in cache) and is
// marked invalid.
#define LOAD_ROUND(r) { \
        for (uint u_ = 0u; u_ < STEP_LOADS; ++u_) { \
            const uint j_ = (r) * STEP_LOADS + u_; \
            const uint k_ = middle + j_ < steps ? middle + j_ : middle + j_ - steps; \
            valid[u_] = j_ < steps; \
            vals[u_] = inVec4.data[lane + (valid[u_] ? k_ : middle) * stride]; \
        } \
    }

#define ADD_ROUND() { \
        for (uint u_ = 0u; u_ < STEP_LOADS; ++u_) { \
            ADD_VEC4(u_, vals[u_], valid[u_]) \
        } \
    }

// This workgroup's elements as one record; valid in subgroup 0.
Partial groupRecord() {
    const uint lane = gl_GlobalInvocationID.x;
    const uint count4 = pc.count / 4u;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint tail = pc.count - count4 * 4u;
    const uint steps = lane < count4 ? (count4 - 1u - lane) / stride + 1u : 0u;
    const uint middle = steps / 2u;
    const bool few = steps <= FEW_STEPS;
    const uint rounds = few ? (steps + STEP_LOADS - 1u) / STEP_LOADS : 0u;
    const bool hasTail = lane < tail;
    const float tailValue = hasTail ? inScalar.data[count4 * 4u + lane] : 0.0;
    vec4 vals[STEP_LOADS];
    bool valid[STEP_LOADS];
    // Few steps: round 0 starts at the middle, and its first vec4 gives the shift; else the middle's vec4 first.
    if (rounds != 0u) {
        LOAD_ROUND(0u)
    }
    const vec4 middleVec4 = rounds != 0u ? vals[0] : steps != 0u ? inVec4.data[lane + middle * stride] : vec4(0.0);
    const float shift = steps != 0u ? firstFinite(middleVec4) : isFiniteBits(tailValue) ? tailValue : 0.0;
    bool nan = false;
    float lo = POS_INF;
    float hi = NEG_INF;
    float s1 = 0.0;
    float c1 = 0.0;
    float s2 = 0.0;
    float c2 = 0.0;
    float b1[STEP_LOADS];
    float b2[STEP_LOADS];
    for (uint u = 0u; u < STEP_LOADS; ++u) {
        b1[u] = 0.0;
        b2[u] = 0.0;
    }
    if (few) {
        // Blocks of BLOCK_STEPS rounds, each block's sums flushed into the Kahan pairs.
        for (uint r = 0u; r < rounds; ) {
            const uint blockEnd = min(rounds, r + BLOCK_STEPS);
            for (; r < blockEnd; ++r) {
                if (r != 0u) {
                    LOAD_ROUND(r)
                }
                ADD_ROUND()
            }
            FLUSH_BLOCK()
        }
    } else {
        ADD_RANGE(middle, steps)
        ADD_RANGE(0u, middle)
    }
    uint n = 4u * steps;
    if (hasTail) {
        precise float d = tailValue - shift;
        precise float dd = d * d;
        nan = nan || isNanBits(dd);
        kahanAdd(s1, c1, d);
        kahanAdd(s2, c2, dd);
        lo = min(lo, tailValue);
        hi = max(hi, tailValue);
        n += 1u;
    }
    const uint flags = nan ? 1u : 0u;
    const float nf = float(n);
    // S1 and S2 (Kahan pairs rounded once), then about the subgroup's reference: lane 0's shift, which
    // is 0 only when lane 0 (the lane with the most elements) and so the whole subgroup is empty.
    precise float sumD = s1 - c1;
    precise float sumQ = s2 - c2;
    const float reference = subgroupShuffle(shift, 0u);
    precise float delta = shift - reference;
    precise float d = fma(nf, delta, sumD);
    precise float q = fma(delta, fma(nf, delta, 2.0 * sumD), sumQ);
    // The sum: n K exactly (TwoProduct) plus S1 as its pair.
    precise float nk = nf * shift;
    precise float nkLo = fma(nf, shift, -nk);
    const vec2 sum = pairAdd(nk, nkLo, s1, -c1);
    // Every invocation reaches the butterfly and workgroupRecord (its barrier) from here, an empty one empty.
    const About mine = n == 0u ? EMPTY_ABOUT : About(n, sum.x, sum.y, d, q, lo, hi, flags);
    return workgroupRecord(record(subgroupAbout(mine), reference));
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
#ifdef FOLD_SUBGROUP
    if (!lastGroup || gl_SubgroupID != 0u) {
        return;
    }
    memoryBarrierBuffer();
    const Partial rs = foldRecordsSubgroup(gl_NumWorkGroups.x);
    if (gl_SubgroupInvocationID == 0u) {
        outRecords.data[pc.outIndex] = finished(rs);
        ticket.next = 0u;
    }
    return;
#endif
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

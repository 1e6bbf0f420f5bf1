#version 460
// Auto-exposure, step 1: a 256-bin histogram of log2 luminance, weighted by metering. Two pipelines
// come from this file:
//
// ACCUMULATE (default). Dispatch ceil(W / 16) x ceil(H / (16 * ROWS_PER_INVOCATION)) x 1 groups of
// 16 x 16. Each group covers a 16-wide, 16 * ROWS_PER_INVOCATION-tall tile, adds each pixel's
// quantized weight (1/256 steps) to a private uint bin in shared memory, and merges its non-zero bins
// into a global 64-bit fixed-point accumulator (two uint words per bin, carry by atomicAdd's return).
//   set 0, binding 0: the HDR image, storage image, readonly, format HDR_FORMAT (default rgba16f;
//                     -DHDR_FORMAT=rgba32f for R32G32B32A32_SFLOAT). Layout GENERAL.
//                     With HDR_SAMPLED defined: a combined image sampler instead (any float format, HDR_FORMAT
//                     unused), read with texelFetch (level 0, the sampler's filter and addressing do not
//                     matter), layout SHADER_READ_ONLY_OPTIMAL: for images made without STORAGE usage. The
//                     same texels are read, so the counts are the same either way.
//   set 0, binding 1: storage buffer, 256 x {uint lo; uint hi;} (2048 bytes), the accumulator. Zero it
//                     once when it is created; RESOLVE leaves it zeroed for the next frame.
//   set 0, binding 2: (METERING == 2 only) combined image sampler, the metering mask: its red channel,
//                     clamped to [0, 1], is the weight; read with texelFetch, nearest texel of each
//                     pixel centre, so any size and any sampled format works (the sampler's filter
//                     and addressing do not matter, but Vulkan still needs one bound).
//   push constants (8 bytes): float minEV; float binsPerEV (= 255 / (maxEV - minEV)).
//   specialization constant 0: ROWS_PER_INVOCATION (uint, default 32 from the engine, 1..65535).
//   define METERING: 0 uniform (weight 1), 1 centre-weighted, 2 mask (see exposure_common.glsl).
//
// ACCUMULATE with FUSED_RESOLVE defined (what the engine runs). The same, and RESOLVE's work is done
// by the last workgroup to finish, in the same dispatch: each group merges its bins, then takes a
// ticket from a counter after the accumulator; the group that draws the last ticket converts every bin
// (atomic exchange with 0: read and zeroed in one step, so nothing is read before the other groups'
// atomics) and resets the counter. No group waits for another, so the pattern needs no forward-progress
// guarantee between workgroups; integer bins make the order of the adds irrelevant.
//   set 0, binding 1: storage buffer, the accumulator then one uint ticket (2064 bytes). Zero it once.
//   set 0, binding 2: storage buffer, 256 floats, the bins as RESOLVE writes them.
//   set 0, binding 3: (METERING == 2 only) the metering mask, as binding 2 above.
//
// Reads: each invocation issues LOAD_BATCH image loads before it bins any of them (see LOAD_BATCH).
//
// RESOLVE (-DHISTOGRAM_RESOLVE). Dispatch 1 x 1 x 1 group of 256, after ACCUMULATE's writes are made
// visible (compute -> compute barrier). Converts each bin to a float in pixel units and zeroes it.
//   set 0, binding 0: storage buffer, the accumulator (as above).
//   set 0, binding 1: storage buffer, 256 floats: bin weights in pixel units, count / 256 rounded once
//                     to the nearest float. Uniform metering adds 1 per pixel, so the bins of a W x H
//                     image sum to W * H; each bin is exact while it holds at most 2^24 pixels (any
//                     4K frame), beyond that it is off by at most half a float ULP (2^-24 relative).
//   no push constants, no specialization constants.
//
// Overflow: a group adds at most 256 * 256 * ROWS_PER_INVOCATION to one shared bin (< 2^32 for
// ROWS_PER_INVOCATION <= 65535). A global bin is 64 bits: even 7680 x 4320 at weight 1 is
// 8,493,465,600 < 2^64 (it does exceed 2^32, which is why one word would not do).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "exposure_common.glsl"

struct Counter {
    uint lo;   // low 32 bits of the fixed-point count (units of 1/256 pixel)
    uint hi;   // high 32 bits: incremented once each time lo wraps
};

// hi * 2^32 + lo, rounded once to the nearest float (ties to even), with 32-bit integers only (no
// shaderInt64). For hi != 0 the value is shifted right until it fits in 32 bits with bit 31 set; the
// bits shifted out only matter as a sticky bit, which is folded into bit 0: float() rounds at bit 8,
// so bit 0 can only break a tie, exactly as the lost bits would. uint -> float conversion is correctly
// rounded in Vulkan and ldexp by a power of two is exact.
float fixedPointToFloat(uint hi, uint lo) {
    if (hi == 0u) {
        return float(lo);
    }
    const uint shift = uint(findMSB(hi)) + 1u;   // 1..32
    uint window;
    uint dropped;
    if (shift == 32u) {
        window = hi;
        dropped = lo;
    } else {
        window = (hi << (32u - shift)) | (lo >> shift);
        dropped = lo << (32u - shift);              // non-zero iff any of the low `shift` bits was set
    }
    window |= dropped != 0u ? 1u : 0u;
    return ldexp(float(window), int(shift));
}

#ifndef HISTOGRAM_RESOLVE

#ifndef HDR_FORMAT
#define HDR_FORMAT rgba16f
#endif
#ifndef METERING
#define METERING METERING_UNIFORM
#endif
#if METERING != METERING_UNIFORM && METERING != METERING_CENTRE && METERING != METERING_MASK
#error "METERING must be 0 (uniform), 1 (centre) or 2 (mask)"
#endif

layout(local_size_x = 16, local_size_y = 16) in;   // 256 invocations: one per bin to clear and merge
layout(constant_id = 0) const uint ROWS_PER_INVOCATION = 4u;

// Pixels loaded per invocation before the first of them is binned. The loads are unconditional (rows
// clamped to the image, outside pixels weigh nothing), so each batch leaves the invocation as back-to-back
// load instructions and the memory system sees 4 x 8 bytes per invocation in flight instead of 8. Two
// measured best while a pixel's bin took more instructions (4 and 8 cost residency in registers); with the
// bin from the luminance alone, four: 21.60 / 21.57 -> 21.25 / 21.22 us on the H200's 4K demo scene.
#define LOAD_BATCH 4

#ifdef HDR_SAMPLED
layout(set = 0, binding = 0) uniform sampler2D hdrImage;
#define HDR_SIZE() textureSize(hdrImage, 0)
#define HDR_LOAD(p) texelFetch(hdrImage, (p), 0)
#else
layout(set = 0, binding = 0, rg32ui) readonly uniform uimage2D hdrImage;   // timing experiment: the rgba16f texels as raw 64-bit words
#define HDR_SIZE() imageSize(hdrImage)
vec4 rawHalfLoad(ivec2 p) {
    const uvec2 w = imageLoad(hdrImage, p).xy;
    return vec4(unpackHalf2x16(w.x), unpackHalf2x16(w.y));
}
#define HDR_LOAD(p) rawHalfLoad(p)
#endif
#ifdef FUSED_RESOLVE
layout(std430, set = 0, binding = 1) coherent buffer Accumulator { Counter bins[HISTOGRAM_BINS]; uint ticket; } accumulator;
layout(std430, set = 0, binding = 2) writeonly buffer Bins { float weight[HISTOGRAM_BINS]; } outBins;
#define MASK_BINDING 3
#else
layout(std430, set = 0, binding = 1) buffer Accumulator { Counter bins[HISTOGRAM_BINS]; } accumulator;
#define MASK_BINDING 2
#endif
#if METERING == METERING_MASK
layout(set = 0, binding = MASK_BINDING) uniform sampler2D meteringMask;
#endif

layout(push_constant) uniform Push {
    float minEV;
    float binsPerEV;
} pc;

shared uint groupBins[HISTOGRAM_BINS];
shared bool lastGroup;

uint meteringWeight(ivec2 pixel, ivec2 size) {
#if METERING == METERING_UNIFORM
    return WEIGHT_ONE;
#elif METERING == METERING_CENTRE
    return quantizeWeight(centreWeight(pixel, size));
#else
    ivec2 texel = maskTexel(pixel, size, textureSize(meteringMask, 0));
    return quantizeWeight(texelFetch(meteringMask, texel, 0).r);
#endif
}

// Adds each invocation's weight to its bin in shared memory, one atomic per distinct bin in the
// subgroup rather than one per invocation: a flat image (every lane in one bin) costs one atomic per
// subgroup instead of serializing the whole subgroup on one address. Used once per invocation, for the
// run it holds at the end of its walk (every lane there, so the subgroup is whole).
//
// Each pass takes the bin of the lowest still-pending lane, sums the weights of all pending lanes with
// that bin and lets that lowest lane (subgroupElect picks the lowest active id) do the single add.
// Correct whatever the subgroup size and whichever lanes the implementation keeps together in the
// loop: each pass only ever retires lanes whose weight it has added.
void addToGroup(uint bin, uint weight) {
    bool pending = weight != 0u;
    while (pending) {
        uint leaderBin = subgroupBroadcastFirst(bin);
        bool mine = bin == leaderBin;
        uint sum = subgroupAdd(mine ? weight : 0u);
        if (subgroupElect()) {
            atomicAdd(groupBins[leaderBin], sum);
        }
        pending = !mine;
    }
}

// 64-bit add from two 32-bit atomics: an add wraps lo exactly when its returned old value plus the
// amount overflows, and then (exactly once per wrap) it carries into hi. Nothing reads the pair until
// RESOLVE, after a pipeline barrier, when every carry has landed.
void addToGlobal(uint bin, uint amount) {
    uint before = atomicAdd(accumulator.bins[bin].lo, amount);
    if (before + amount < before) {
        atomicAdd(accumulator.bins[bin].hi, 1u);
    }
}

// Extends this invocation's run (bin, summed weight) with one pixel; a pixel outside the image or past
// this invocation's rows weighs nothing and leaves the run as it is.
void binPixel(vec3 rgb, ivec2 pixel, bool inside, ivec2 size, inout uint runBin, inout uint runWeight) {
    const uint bin = inside ? histogramBin(rgb, pc.minEV, pc.binsPerEV) : 0u;
    const uint weight = inside ? meteringWeight(pixel, size) : 0u;   // pixels outside weigh nothing
    if (weight != 0u && bin != runBin && runWeight != 0u) {
        // A run ended: one plain shared atomic from this lane. Not addToGroup's subgroup loop: in this
        // divergent branch that loop cost more than the conflicts it saves, on busy and flat images alike
        // (H200, 4K: 44.2 -> 26.3 us on the demo's scene, 30.7 -> 27.9 us on a flat image).
        atomicAdd(groupBins[runBin], runWeight);
        runWeight = 0u;
    }
    if (weight != 0u) {
        runBin = bin;
        runWeight += weight;   // at most ROWS_PER_INVOCATION x 256: no overflow
    }
}

void main() {
    const uint local = gl_LocalInvocationIndex;
    groupBins[local] = 0u;
    memoryBarrierShared();
    barrier();

    // Each subgroup of 32 takes an 8 x 4 block of the 16 x 16 tile (rather than 16 x 2): fewer memory
    // tiles touched per load instruction (measured 1-3 % faster on the H200). Any subgroup size gives a
    // correct permutation of the tile; only the speed argument assumes 32.
    const uint warpIndex = gl_LocalInvocationIndex / 32u;
    const uint laneIndex = gl_LocalInvocationIndex % 32u;
    const uvec2 lid = uvec2((warpIndex % 2u) * 8u + laneIndex % 8u, (warpIndex / 2u) * 4u + laneIndex / 8u);
    const ivec2 size = HDR_SIZE();
    const int x = int(gl_WorkGroupID.x * gl_WorkGroupSize.x + lid.x);
    const int tileTop = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * ROWS_PER_INVOCATION);
    // Each invocation walks down a column and keeps a run (bin, summed weight) in registers, adding
    // it to shared memory only when the bin changes: neighbouring pixels mostly share a bin, so most
    // pixels cost no subgroup operation and no atomic. Integer weights: the sums are exact in any order.
    uint runBin = 0u;
    uint runWeight = 0u;
    const int column = min(x, size.x - 1);
    const bool columnInside = x < size.x;
    const int firstRow = tileTop + int(lid.y);
    const int rowStep = int(gl_WorkGroupSize.y);
    for (uint row0 = 0u; row0 < ROWS_PER_INVOCATION; row0 += LOAD_BATCH) {
        const int batchTop = firstRow + int(row0) * rowStep;
        if (batchTop >= size.y) {
            break;   // the rest of this column is below the image
        }
        // The whole batch is loaded first: named values, no array, so nothing can spill to memory.
#define ROW_OF(k) (batchTop + (k) * rowStep)
#define LOAD_PIXEL(k) const vec3 rgb##k = HDR_LOAD(ivec2(column, min(ROW_OF(k), size.y - 1))).rgb
#define BIN_PIXEL(k) binPixel(rgb##k, ivec2(x, ROW_OF(k)), columnInside && row0 + (k) < ROWS_PER_INVOCATION && ROW_OF(k) < size.y, size, runBin, runWeight)
#define BIN_INSIDE(k) binPixel(rgb##k, ivec2(x, ROW_OF(k)), true, size, runBin, runWeight)
        LOAD_PIXEL(0);
        LOAD_PIXEL(1);
        LOAD_PIXEL(2);
        LOAD_PIXEL(3);
        // A batch wholly inside the image and this invocation's rows (every batch but those at the bottom and right
        // edges, and the last when the rows are not a whole number of batches) is binned with no per-pixel test: the same bins, four tests fewer per pixel (H200 4K demo scene,
        // two rounds: 20.38 / 20.38 -> 18.43 / 18.27 us).
        if (columnInside && row0 + LOAD_BATCH <= ROWS_PER_INVOCATION && ROW_OF(LOAD_BATCH - 1) < size.y) {
            BIN_INSIDE(0);
            BIN_INSIDE(1);
            BIN_INSIDE(2);
            BIN_INSIDE(3);
        } else {
            BIN_PIXEL(0);
            BIN_PIXEL(1);
            BIN_PIXEL(2);
            BIN_PIXEL(3);
        }
#undef BIN_INSIDE
#undef ROW_OF
#undef LOAD_PIXEL
#undef BIN_PIXEL
    }
    addToGroup(runBin, runWeight);

    memoryBarrierShared();
    barrier();
    const uint count = groupBins[local];
    if (count != 0u) {
        addToGlobal(local, count);
    }
#ifdef FUSED_RESOLVE
    // Release: this group's adds are done (device-scope atomics) before its ticket is drawn.
    memoryBarrierBuffer();
    barrier();
    if (local == 0u) {
        const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
        lastGroup = atomicAdd(accumulator.ticket, 1u) == groups - 1u;
    }
    barrier();
    if (!lastGroup) {
        return;
    }
    // Acquire: every group has counted its ticket, so every add has landed; the exchanges read the
    // final counts at the device's atomic unit and leave the bins zeroed for the next frame.
    memoryBarrierBuffer();
    const uint lo = atomicExchange(accumulator.bins[local].lo, 0u);
    const uint hi = atomicExchange(accumulator.bins[local].hi, 0u);
    outBins.weight[local] = fixedPointToFloat(hi, lo) * (1.0 / WEIGHT_SCALE);
    if (local == 0u) {
        accumulator.ticket = 0u;   // ready for the next dispatch
    }
#endif
}

#else // HISTOGRAM_RESOLVE

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) restrict buffer Accumulator { Counter bins[HISTOGRAM_BINS]; } accumulator;
layout(std430, set = 0, binding = 1) writeonly restrict buffer Bins { float weight[HISTOGRAM_BINS]; } outBins;

void main() {
    const uint bin = gl_LocalInvocationIndex;
    const Counter c = accumulator.bins[bin];
    // count / 256: a power-of-two scale, exact unless it underflows (it cannot: counts are integers).
    outBins.weight[bin] = fixedPointToFloat(c.hi, c.lo) * (1.0 / WEIGHT_SCALE);
    accumulator.bins[bin] = Counter(0u, 0u);
}

#endif

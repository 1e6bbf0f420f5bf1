#version 460
// Auto-exposure, step 3: metering and temporal adaptation. Dispatch 1 x 1 x 1 group of 256.
//
//   set 0, binding 0: storage buffer, 257 floats, the normalized histogram (histogram_normalize.comp).
//   set 0, binding 1: storage buffer, 8 floats, history: the previous frame's output of this pass. Zero
//                     it when it is created (valid = 0: the first measurement snaps).
//   set 0, binding 2: storage buffer, 8 floats, this frame's exposure record (layout in
//                     exposure_common.glsl: ev, multiplier, meanLogLum, valid, lowEV, highEV, targetEV,
//                     measured). Ping-pong it with binding 1 from frame to frame. Binding the same
//                     buffer to 1 and 2 also works: one invocation reads the history before writing.
//   push constants (40 bytes), in order: float dt (seconds since the previous frame; a value that is
//     not finite and positive counts as 0), uint reset (non-zero: drop the history, snap),
//     float minEV, float evPerBin (= (maxEV - minEV) / 255), float lowPercentile,
//     float highPercentile, float log2MiddleGrey, float compensation, float brightenSpeed,
//     float darkenSpeed (both in stops per second).
//   no specialization constants.
//
// Metering. Bin 0 is left out: percentiles are cumulative probabilities of the samples in bins
// 1..255 (sample units: a bin holding 30 % of those samples spans 0.3 of the axis, however narrow its
// EV range). With M = sum of p[1..255] and [a, b] = [lowPercentile * M, highPercentile * M], bin k
// covers [C(k-1), C(k)] of the cumulative sum and contributes overlap_k = |[C(k-1), C(k)] n [a, b]|:
//   meanLogLum = sum(overlap_k * centreEV(k)) / sum(overlap_k)
// so a bin cut by a percentile counts with the fraction of its samples inside the window.
// lowEV / highEV: where the cumulative reaches a / b, linear within the bin between its edges.
// A frame is measured when the normalized histogram is valid and M > 0 (else everything is carried).
//
// Exposure: targetEV = meanLogLum - log2(middleGrey) - compensation; multiplier = exp2(-ev), so the
// metered mean lands on middle grey (+1 compensation = one stop brighter).
//
// Adaptation (see adaptEV): the exact solution over dt of d(err)/dt = -speed * clamp(err, -1, 1),
// err = ev - targetEV in stops: linear at `speed` stops/s while more than one stop away, exponential
// with rate `speed` inside one stop. Continuous, never overshoots, and frame-rate independent.
// brightenSpeed applies when the scene got brighter (targetEV > ev), darkenSpeed when it got darker.
// No valid history (first frame, after a reset) and a measurement: snap, ev = targetEV.
// No measurement: ev and the metering fields are carried from history, measured = 0; after a reset
// valid = 0 as well, so the next measurement snaps.
//
// Invocation 0 does the metering alone, in bin order with `precise` arithmetic: 2 x 255 additions
// are cheap once per frame, and the Java model (ExposureModel) reproduces the same roundings.

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "exposure_common.glsl"

layout(local_size_x = HISTOGRAM_BINS) in;

layout(std430, set = 0, binding = 0) readonly restrict buffer Normalized { float value[NORMALIZED_FLOATS]; } histogram;
layout(std430, set = 0, binding = 1) readonly buffer History { float value[EXPOSURE_FLOATS]; } history;
layout(std430, set = 0, binding = 2) writeonly buffer Exposure { float value[EXPOSURE_FLOATS]; } result;

layout(push_constant) uniform Push {
    float dt;
    uint reset;
    float minEV;
    float evPerBin;
    float lowPercentile;
    float highPercentile;
    float log2MiddleGrey;
    float compensation;
    float brightenSpeed;
    float darkenSpeed;
} pc;

// Metering runs on all 256 invocations: one bin each. A prefix sum (subgroup scans, then the
// subgroups' totals through shared memory) gives every bin its [start, end) interval of cumulative
// probability; each bin adds its share of the percentile window, and the two bins holding the cuts
// report them. No subgroup size is assumed.
shared float subgroupSums[HISTOGRAM_BINS];
shared float subgroupWeights[HISTOGRAM_BINS];
shared float subgroupEVs[HISTOGRAM_BINS];
shared float cutLowEV;
shared float cutHighEV;
shared uint cutsFound;
shared float windowMass;

struct Metered {
    bool measured;
    float meanEV;
    float lowEV;
    float highEV;
};

// Called by every invocation; the result is meaningful in invocation 0.
Metered meterHistogram(uint k) {
    const float p = k >= 1u ? histogram.value[k] : 0.0;
    if (k == 0u) {
        cutsFound = 0u;
    }
    const float inclusive = subgroupInclusiveAdd(p);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
        subgroupSums[gl_SubgroupID] = inclusive;
    }
    memoryBarrierShared();
    barrier();
    precise float before = 0.0;
    precise float mass = 0.0;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
        if (s < gl_SubgroupID) {
            before = before + subgroupSums[s];
        }
        mass = mass + subgroupSums[s];
    }
    precise float end = before + inclusive;
    precise float start = end - p;
    const bool valid = histogram.value[NORMALIZED_VALID] > 0.5 && mass > 0.0 && isFiniteBits(mass);
    precise float low = pc.lowPercentile * mass;
    precise float high = pc.highPercentile * mass;
    float weight = 0.0;
    float weightedEV = 0.0;
    if (valid && p > 0.0) {
        precise float overlap = min(end, high) - max(start, low);
        if (overlap > 0.0) {
            weight = overlap;
            weightedEV = overlap * binCentreEV(k, pc.minEV, pc.evPerBin);
        }
        if (start <= low && low < end) {
            cutLowEV = binLowerEV(k, pc.minEV, pc.evPerBin) + ((low - start) / p) * pc.evPerBin;
            atomicOr(cutsFound, 1u);
        }
        if (start < high && high <= end) {
            cutHighEV = binLowerEV(k, pc.minEV, pc.evPerBin) + ((high - start) / p) * pc.evPerBin;
            atomicOr(cutsFound, 2u);
        }
    }
    const float w = subgroupAdd(weight);
    const float e = subgroupAdd(weightedEV);
    if (subgroupElect()) {
        subgroupWeights[gl_SubgroupID] = w;
        subgroupEVs[gl_SubgroupID] = e;
    }
    memoryBarrierShared();
    barrier();
    Metered none = Metered(false, 0.0, 0.0, 0.0);
    if (k != 0u || !valid) {
        return none;
    }
    precise float weightSum = 0.0;
    precise float evSum = 0.0;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
        weightSum = weightSum + subgroupWeights[s];
        evSum = evSum + subgroupEVs[s];
    }
    if (!(weightSum > 0.0)) {
        return none;   // a window too thin to hold any sample (only with denormal masses)
    }
    const float mean = evSum / weightSum;
    return Metered(true, mean, (cutsFound & 1u) != 0u ? cutLowEV : mean, (cutsFound & 2u) != 0u ? cutHighEV : mean);
}

float targetEV(float meanLogLum) {
    precise float t = (meanLogLum - pc.log2MiddleGrey) - pc.compensation;
    return t;
}

// One step of the adaptation law, exact for any dt (two steps of dt/2 land where one step of dt does,
// up to rounding). `travel` is how far the linear rate would move in dt; the part of it left after
// reaching one stop is spent exponentially: 1 stop * exp(-speed * timeLeft) = exp(-(travel - linear)).
float adaptEV(float previous, float target, float dt) {
    const float speed = target > previous ? pc.brightenSpeed : pc.darkenSpeed;
    precise float delta = target - previous;
    const float distance = abs(delta);
    precise float travel = speed * dt;
    float remaining;
    if (distance > 1.0) {
        precise float linear = distance - 1.0;
        if (travel <= linear) {
            precise float left = distance - travel;
            remaining = left;
        } else {
            precise float excess = travel - linear;
            remaining = exp(-excess);
        }
    } else {
        precise float decayed = distance * exp(-travel);
        remaining = decayed;
    }
    precise float ev = delta >= 0.0 ? target - remaining : target + remaining;
    return ev;
}

void main() {
    const uint i = gl_LocalInvocationIndex;
    const Metered m = meterHistogram(i);
    if (i != 0u) {
        return;
    }

    const float dt = (pc.dt > 0.0 && isFiniteBits(pc.dt)) ? pc.dt : 0.0;
    const bool reset = pc.reset != 0u;
    const float previousEV = history.value[EXPOSURE_EV];
    const bool historyValid = history.value[EXPOSURE_VALID] > 0.5 && isFiniteBits(previousEV);

    float ev;
    float record[EXPOSURE_FLOATS];
    if (m.measured) {
        const float target = targetEV(m.meanEV);
        ev = (reset || !historyValid) ? target : adaptEV(previousEV, target, dt);
        record[EXPOSURE_MEAN_LOG_LUM] = m.meanEV;
        record[EXPOSURE_VALID] = 1.0;
        record[EXPOSURE_LOW_EV] = m.lowEV;
        record[EXPOSURE_HIGH_EV] = m.highEV;
        record[EXPOSURE_TARGET_EV] = target;
        record[EXPOSURE_MEASURED] = 1.0;
    } else {
        ev = isFiniteBits(previousEV) ? previousEV : 0.0;
        record[EXPOSURE_MEAN_LOG_LUM] = history.value[EXPOSURE_MEAN_LOG_LUM];
        record[EXPOSURE_VALID] = (reset || !historyValid) ? 0.0 : 1.0;
        record[EXPOSURE_LOW_EV] = history.value[EXPOSURE_LOW_EV];
        record[EXPOSURE_HIGH_EV] = history.value[EXPOSURE_HIGH_EV];
        record[EXPOSURE_TARGET_EV] = history.value[EXPOSURE_TARGET_EV];
        record[EXPOSURE_MEASURED] = 0.0;
    }
    record[EXPOSURE_EV] = ev;
    record[EXPOSURE_MULTIPLIER] = exp2(-ev);
    for (uint f = 0u; f < EXPOSURE_FLOATS; ++f) {
        result.value[f] = record[f];
    }
}

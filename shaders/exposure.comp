#version 460
// Auto-exposure, step 3: normalization, histogram filter, metering, target and temporal adaptation.
// Dispatch 1 x 1 x 1 group of 256 (one invocation per bin).
//
//   set 0, binding 0: storage buffer, 256 floats, this frame's bins (histogram.comp).
//   set 0, binding 1: storage buffer, float [0] = the bins' total (the engine's reduction).
//   set 0, binding 2: storage buffer, 257 floats, written: this frame's normalized histogram, the
//                     bins divided by the total, then the usable flag, by normalize.comp's rule
//                     (the same quotients: the HUD and readbacks read it).
//   set 0, binding 3: storage buffer, 257 floats, last frame's filtered histogram (history; zeroed
//                     when created: flag 0, nothing to blend with).
//   set 0, binding 4: storage buffer, 257 floats, this frame's filtered histogram (same layout).
//   set 0, binding 5: storage buffer, 16 floats, last frame's exposure record (history; zeroed when
//                     created: valid = 0, the first measurement snaps).
//   set 0, binding 6: storage buffer, 16 floats, this frame's exposure record (layout in
//                     exposure_common.glsl). Bindings 3/4 and 5/6 ping-pong from frame to frame.
//   set 0, binding 7: storage buffer, 68 floats, the compensation curve table (ExposureCurve.bake()).
//   push constants (72 bytes), in order: float dt (seconds since the previous frame; not finite and
//     positive counts as 0), uint reset (non-zero: drop both histories, snap), uint mode (MODE_*),
//     float minEV, float evPerBin (= (maxEV - minEV) / 255), float lowPercentile,
//     float highPercentile, float log2MiddleGrey, float compensation, float brightenSpeed,
//     float darkenSpeed (stops per second), float transitionEV, float deadBandEV,
//     float histogramBlend (this frame's weight in the moving average, 1 - exp(-dt / tau); 1: no
//     filter), float clampMinEV, float clampMaxEV, float fixedEV (manual / physical modes),
//     float settleEV (= min(deadBandEV, 0.01)).
//   no specialization constants.
//
// Filter. f = previous + blend * (current - previous) per bin, an exponential moving average of the
// distribution itself: a flickering light spreads into a stable mixture instead of a swinging mean.
// This frame's histogram alone when there is no usable previous one (first frame, reset) or blend is
// 1; the previous one alone (carried) when this frame's is not usable.
//
// Metering of the filtered histogram. Bin 0 is left out: percentiles are cumulative probabilities of
// the samples in bins 1..255 (sample units: a bin holding 30 % of those samples spans 0.3 of the axis,
// however narrow its EV range). With M = sum of p[1..255] and [a, b] = [lowPercentile * M,
// highPercentile * M], bin k covers [C(k-1), C(k)] of the cumulative sum and contributes
// overlap_k = |[C(k-1), C(k)] n [a, b]|:
//   meanLogLum = sum(overlap_k * centreEV(k)) / sum(overlap_k)
// lowEV / highEV: where the cumulative reaches a / b, linear within the bin between its edges.
// A frame is measured when this frame's normalized histogram is valid and M > 0.
//
// Target (auto mode): sceneEV = meanLogLum - log2MiddleGrey; curveEV = the curve table at sceneEV;
// targetEV = clamp((sceneEV - compensation) - curveEV, clampMinEV, clampMaxEV). multiplier = exp2(-ev),
// so the metered mean lands on middle grey. Manual and physical modes: targetEV = fixedEV -
// compensation, ev = targetEV at once (phase snap); metering still fills the record.
//
// Adaptation (auto mode, see adaptEV): the exact solution over dt of
//   d(err)/dt = -speed * clamp(err / transitionEV, -1, 1) * transitionEV,  err = ev - targetEV,
// linear at `speed` stops/s farther than transitionEV, exponential with rate speed / transitionEV
// within it. Continuous, never overshoots, frame-rate independent. brightenSpeed applies when
// targetEV > ev, darkenSpeed otherwise. Dead band: while holding, ev stays until |targetEV - ev| >
// deadBandEV; once adapting, it adapts until |targetEV - ev| <= settleEV, then holds again.
// No valid history (first frame, reset) and a measurement: snap. No measurement: ev and the metering
// fields are carried, phase holding; after a reset valid = 0 as well, so the next measurement snaps.
//
// The arithmetic that the Java model mirrors is `precise` (no fma on either side).

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "exposure_common.glsl"

layout(local_size_x = HISTOGRAM_BINS) in;

layout(std430, set = 0, binding = 0) readonly restrict buffer Bins { float value[HISTOGRAM_BINS]; } bins;
layout(std430, set = 0, binding = 1) readonly restrict buffer Total { float value; } total;
layout(std430, set = 0, binding = 2) writeonly restrict buffer Normalized { float value[NORMALIZED_FLOATS]; } histogram;
layout(std430, set = 0, binding = 3) readonly buffer FilteredBefore { float value[NORMALIZED_FLOATS]; } filteredBefore;
layout(std430, set = 0, binding = 4) writeonly buffer Filtered { float value[NORMALIZED_FLOATS]; } filtered;
layout(std430, set = 0, binding = 5) readonly buffer History { float value[EXPOSURE_FLOATS]; } history;
layout(std430, set = 0, binding = 6) writeonly buffer Exposure { float value[EXPOSURE_FLOATS]; } result;
layout(std430, set = 0, binding = 7) readonly restrict buffer Curve { float value[CURVE_TABLE_FLOATS]; } curve;

layout(push_constant) uniform Push {
    float dt;
    uint reset;
    uint mode;
    float minEV;
    float evPerBin;
    float lowPercentile;
    float highPercentile;
    float log2MiddleGrey;
    float compensation;
    float brightenSpeed;
    float darkenSpeed;
    float transitionEV;
    float deadBandEV;
    float histogramBlend;
    float clampMinEV;
    float clampMaxEV;
    float fixedEV;
    float settleEV;
} pc;

shared float subgroupSums[HISTOGRAM_BINS];
shared float subgroupWeights[HISTOGRAM_BINS];
shared float subgroupEVs[HISTOGRAM_BINS];
shared float cutLowEV;
shared float cutHighEV;
shared uint cutsFound;
// The exposure record of last frame and the curve table, copied to shared memory by the first invocations
// at the start, so their global loads are in flight together with the bins' instead of one after another in
// invocation 0's serial tail. Measured on the H200: 7.4 -> 7.1 us in the benchmark, 6.8 -> 6.4 us in the
// demo; most of what is left is the pass's launch and barrier (the 256-float reduction pass takes 4.5 us).
shared float pastRecord[EXPOSURE_FLOATS];
shared float curveTable[CURVE_TABLE_FLOATS];

struct Metered {
    bool measured;
    float meanEV;
    float lowEV;
    float highEV;
};

// This bin of the filtered histogram (k in 0..255), from this frame's normalized bin `current`.
float filterBin(uint k, float current, bool currentValid, bool previousValid) {
    const float previous = filteredBefore.value[k];
    if (currentValid && previousValid) {
        if (pc.histogramBlend >= 1.0) {
            return current;
        }
        precise float d = current - previous;
        precise float f = previous + pc.histogramBlend * d;
        return f;
    }
    return currentValid ? current : (previousValid ? previous : 0.0);
}

// Called by every invocation with its bin's probability p; the result is meaningful in invocation 0.
// A prefix sum (subgroup scans, then the subgroups' totals through shared memory) gives every bin its
// [start, end) interval of cumulative probability. No subgroup size is assumed.
Metered meterHistogram(uint k, float p, bool usable) {
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
    const bool valid = usable && mass > 0.0 && isFiniteBits(mass);
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

// The compensation curve at sceneEV: linear between the table's samples, constant beyond its ends.
float curveAt(float sceneEV) {
    const uint count = uint(curveTable[2]);
    if (count == 0u) {
        return 0.0;
    }
    if (count == 1u) {
        return curveTable[CURVE_HEADER_FLOATS];
    }
    precise float offset = sceneEV - curveTable[0];
    precise float t = offset * curveTable[1];
    const float last = float(count - 1u);
    const float clamped = min(max(t, 0.0), last);
    const uint i = min(uint(floor(clamped)), count - 2u);
    precise float f = clamped - float(i);
    const float a = curveTable[CURVE_HEADER_FLOATS + i];
    const float b = curveTable[CURVE_HEADER_FLOATS + i + 1u];
    precise float rise = b - a;
    precise float v = a + f * rise;
    return v;
}

// One step of the adaptation law, exact for any dt. `travel` is how far the linear rate would move
// in dt; the part of it left after reaching the transition distance D is spent exponentially:
// D * exp(-(travel - linear) / D).
float adaptEV(float previous, float target, float dt) {
    const float speed = target > previous ? pc.brightenSpeed : pc.darkenSpeed;
    const float d = pc.transitionEV;
    precise float delta = target - previous;
    const float distance = abs(delta);
    precise float travel = speed * dt;
    float remaining;
    if (distance > d) {
        precise float linear = distance - d;
        if (travel <= linear) {
            precise float left = distance - travel;
            remaining = left;
        } else {
            precise float excess = travel - linear;
            precise float decayed = d * exp(-(excess / d));
            remaining = decayed;
        }
    } else {
        precise float decayed = distance * exp(-(travel / d));
        remaining = decayed;
    }
    precise float ev = delta >= 0.0 ? target - remaining : target + remaining;
    return ev;
}

void main() {
    const uint i = gl_LocalInvocationIndex;
    const bool reset = pc.reset != 0u;
    // Made visible to invocation 0 by the barriers in meterHistogram.
    if (i < EXPOSURE_FLOATS) {
        pastRecord[i] = history.value[i];
    }
    if (i < CURVE_TABLE_FLOATS) {
        curveTable[i] = curve.value[i];
    }
    // Normalization (normalize.comp's rule): the total divides when it is finite and not zero.
    const float t = total.value;
    const bool currentValid = (floatBitsToUint(t) & 0x7f800000u) != 0x7f800000u && t != 0.0;
    // Division, not multiplication by the reciprocal, so each value is the correctly rounded quotient.
    const float current = currentValid ? bins.value[i] / t : 0.0;
    histogram.value[i] = current;
    if (i == 0u) {
        histogram.value[NORMALIZED_VALID] = currentValid ? 1.0 : 0.0;
    }
    const bool previousValid = !reset && filteredBefore.value[NORMALIZED_VALID] > 0.5;
    const float p = filterBin(i, current, currentValid, previousValid);
    filtered.value[i] = p;
    if (i == 0u) {
        filtered.value[NORMALIZED_VALID] = (currentValid || previousValid) ? 1.0 : 0.0;
    }
    const Metered m = meterHistogram(i, i >= 1u ? p : 0.0, currentValid);
    if (i != 0u) {
        return;
    }

    const float dt = (pc.dt > 0.0 && isFiniteBits(pc.dt)) ? pc.dt : 0.0;
    const float previousEV = pastRecord[EXPOSURE_EV];
    const bool historyValid = pastRecord[EXPOSURE_VALID] > 0.5 && isFiniteBits(previousEV);
    const float previousPhase = pastRecord[EXPOSURE_PHASE];
    const bool wasAdapting = previousPhase == float(PHASE_LINEAR) || previousPhase == float(PHASE_EXPONENTIAL);

    float record[EXPOSURE_FLOATS];
    for (uint f = 0u; f < EXPOSURE_FLOATS; ++f) {
        record[f] = 0.0;
    }
    if (m.measured) {
        precise float sceneEV = m.meanEV - pc.log2MiddleGrey;
        record[EXPOSURE_MEAN_LOG_LUM] = m.meanEV;
        record[EXPOSURE_LOW_EV] = m.lowEV;
        record[EXPOSURE_HIGH_EV] = m.highEV;
        record[EXPOSURE_SCENE_EV] = sceneEV;
        record[EXPOSURE_MEASURED] = 1.0;
    } else {
        record[EXPOSURE_MEAN_LOG_LUM] = pastRecord[EXPOSURE_MEAN_LOG_LUM];
        record[EXPOSURE_LOW_EV] = pastRecord[EXPOSURE_LOW_EV];
        record[EXPOSURE_HIGH_EV] = pastRecord[EXPOSURE_HIGH_EV];
        record[EXPOSURE_SCENE_EV] = pastRecord[EXPOSURE_SCENE_EV];
        record[EXPOSURE_MEASURED] = 0.0;
    }

    float ev;
    if (pc.mode != MODE_AUTO) {
        precise float target = pc.fixedEV - pc.compensation;
        ev = target;
        record[EXPOSURE_TARGET_EV] = target;
        record[EXPOSURE_VALID] = 1.0;
        record[EXPOSURE_PHASE] = float(PHASE_SNAP);
    } else if (m.measured) {
        const float curveEV = curveAt(record[EXPOSURE_SCENE_EV]);
        precise float compensated = record[EXPOSURE_SCENE_EV] - pc.compensation;
        precise float raw = compensated - curveEV;
        const float clampHit = raw < pc.clampMinEV ? -1.0 : (raw > pc.clampMaxEV ? 1.0 : 0.0);
        const float target = min(max(raw, pc.clampMinEV), pc.clampMaxEV);
        float phase;
        if (reset || !historyValid) {
            ev = target;
            phase = float(PHASE_SNAP);
        } else {
            const float error = abs(target - previousEV);
            const bool hold = wasAdapting ? error <= pc.settleEV : error <= pc.deadBandEV;
            if (hold) {
                ev = previousEV;
                phase = float(PHASE_HOLDING);
            } else {
                ev = adaptEV(previousEV, target, dt);
                phase = error > pc.transitionEV ? float(PHASE_LINEAR) : float(PHASE_EXPONENTIAL);
            }
        }
        record[EXPOSURE_TARGET_EV] = target;
        record[EXPOSURE_CURVE_EV] = curveEV;
        record[EXPOSURE_CLAMP_HIT] = clampHit;
        record[EXPOSURE_VALID] = 1.0;
        record[EXPOSURE_PHASE] = phase;
    } else {
        ev = isFiniteBits(previousEV) ? previousEV : 0.0;
        record[EXPOSURE_TARGET_EV] = pastRecord[EXPOSURE_TARGET_EV];
        record[EXPOSURE_CURVE_EV] = pastRecord[EXPOSURE_CURVE_EV];
        record[EXPOSURE_CLAMP_HIT] = pastRecord[EXPOSURE_CLAMP_HIT];
        record[EXPOSURE_VALID] = (reset || !historyValid) ? 0.0 : 1.0;
        record[EXPOSURE_PHASE] = float(PHASE_HOLDING);
    }
    record[EXPOSURE_EV] = ev;
    record[EXPOSURE_MULTIPLIER] = exp2(-ev);
    for (uint f = 0u; f < EXPOSURE_FLOATS; ++f) {
        result.value[f] = record[f];
    }
}

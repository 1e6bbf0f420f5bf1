#version 460
// Auto-exposure, step 2: bin weights -> probabilities. Dispatch 1 x 1 x 1 group of 256.
//
//   set 0, binding 0: storage buffer, 256 floats, the bin weights (histogram.comp RESOLVE output).
//   set 0, binding 1: storage buffer, float [0] = total weight: the engine's sum reduction of binding 0.
//   set 0, binding 2: storage buffer, 257 floats: [i] = weight[i] / total for i in 0..255, and
//                     [256] = 1.0 (valid) or 0.0 (invalid). Invalid means the total was not a finite
//                     number greater than zero (every pixel had weight 0, e.g. a black mask); then
//                     0..255 are all 0.0 and exposure.comp keeps the previous exposure.
//   no push constants, no specialization constants.
//
// Bin 0 (black, below range, NaN, Inf) is part of the distribution here; exposure.comp leaves it out
// of the metering.

#include "exposure_common.glsl"

layout(local_size_x = HISTOGRAM_BINS) in;

layout(std430, set = 0, binding = 0) readonly restrict buffer Bins { float weight[HISTOGRAM_BINS]; } bins;
layout(std430, set = 0, binding = 1) readonly restrict buffer Total { float value[]; } total;
layout(std430, set = 0, binding = 2) writeonly restrict buffer Normalized { float value[NORMALIZED_FLOATS]; } normalized;

void main() {
    const uint i = gl_LocalInvocationIndex;
    const float sum = total.value[0];
    const bool valid = sum > 0.0 && isFiniteBits(sum);
    normalized.value[i] = valid ? bins.weight[i] / sum : 0.0;
    if (i == 0u) {
        normalized.value[NORMALIZED_VALID] = valid ? 1.0 : 0.0;
    }
}

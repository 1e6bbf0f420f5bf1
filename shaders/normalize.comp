#version 460
// out[i] = in[i] / total for i < count, with the total read from a GPU buffer (a reduction's result):
// the value never visits the CPU. Used by the engine's NormalizeNode and by the auto-exposure chain
// (256 histogram bins); both follow one rule for a total that cannot divide:
//
//   the total is usable when it is finite and not zero (a bit test: NaN and Inf have an all-ones
//   exponent; +0 and -0 compare equal to 0). Usable: out[i] = in[i] / total and out[count] = 1.0.
//   Not usable (zero, NaN, +-Inf): out[i] = 0.0 for every i and out[count] = 0.0.
//
//   set 0, binding 0: storage buffer, count floats, the input.
//   set 0, binding 1: storage buffer, float [0] = the total.
//   set 0, binding 2: storage buffer, count + 1 floats: the quotients, then the usable flag.
//   push constants (4 bytes): uint count.
//   Dispatch: any number of groups of 256 (a grid-stride loop covers count).
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly restrict buffer Input { float data[]; } inValues;
layout(std430, set = 0, binding = 1) readonly restrict buffer Total { float value; } total;
layout(std430, set = 0, binding = 2) writeonly restrict buffer Output { float data[]; } outValues;
layout(push_constant) uniform Push { uint count; } pc;

bool usableTotal(float t) {
    return (floatBitsToUint(t) & 0x7f800000u) != 0x7f800000u && t != 0.0;
}

void main() {
    const float t = total.value;
    const bool usable = usableTotal(t);
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
        // Division, not multiplication by the reciprocal, so each value is the correctly rounded quotient.
        outValues.data[i] = usable ? inValues.data[i] / t : 0.0;
    }
    if (gl_GlobalInvocationID.x == 0u) {
        outValues.data[pc.count] = usable ? 1.0 : 0.0;
    }
}

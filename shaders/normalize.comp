#version 460
// out[i] = in[i] / total, with the total read from a GPU buffer (a reduction's result): the value never
// visits the CPU. A zero total gives zeros, not NaN or infinity.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly restrict buffer Input { float data[]; } inValues;
layout(std430, set = 0, binding = 1) readonly restrict buffer Total { float value; } total;
layout(std430, set = 0, binding = 2) writeonly restrict buffer Output { float data[]; } outValues;
layout(push_constant) uniform Push { uint count; } pc;

void main() {
    const float t = total.value;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
        // Division, not multiplication by the reciprocal, so each value is the correctly rounded quotient.
        outValues.data[i] = t != 0.0 ? inValues.data[i] / t : 0.0;
    }
}

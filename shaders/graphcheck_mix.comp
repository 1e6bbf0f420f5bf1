#version 460
// graphcheck kernel: out[i] = a * in0[i] + b * in1[(i * stride + offset) % count] + c, for i < writeCount.
// Inputs may be the same buffer; the output may alias both when stride is 1 and offset 0 (each invocation
// then reads and writes only its own element).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In0 { float v[]; } in0;
layout(std430, set = 0, binding = 1) readonly buffer In1 { float v[]; } in1;
layout(std430, set = 0, binding = 2) writeonly buffer Out { float v[]; } outValues;
layout(push_constant) uniform Push { uint count; uint writeCount; uint stride; uint offset; float a; float b; float c; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.writeCount) {
        outValues.v[i] = pc.a * in0.v[i] + pc.b * in1.v[(i * pc.stride + pc.offset) % pc.count] + pc.c;
    }
}

#version 460
// Benchmark ceiling: a grid-stride vec4 copy, the most a shader can move per second (read + write).
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly restrict buffer Src { vec4 data[]; } src;
layout(std430, set = 0, binding = 1) writeonly restrict buffer Dst { vec4 data[]; } dst;
layout(push_constant) uniform Push { uint count4; uint unused0; float unused1; } pc;

void main() {
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count4; i += stride) {
        dst.data[i] = src.data[i];
    }
}

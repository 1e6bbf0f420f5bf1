#version 460
// Test kernel: writes {frame, 2*frame+1, width, height} so a readback sample can be checked against
// the frame and extent it claims.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint data[]; } outValues;
layout(push_constant) uniform Push { uint frame; uint width; uint height; } pc;
void main() {
    outValues.data[0] = pc.frame;
    outValues.data[1] = 2u * pc.frame + 1u;
    outValues.data[2] = pc.width;
    outValues.data[3] = pc.height;
}

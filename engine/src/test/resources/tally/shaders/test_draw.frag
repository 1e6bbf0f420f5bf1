#version 460
// Test: red = normalized[0] * scale, read from a storage buffer in the fragment stage.
layout(std430, set = 0, binding = 0) readonly buffer Values { float data[]; } values;
layout(push_constant) uniform Push { float scale; } pc;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(clamp(values.data[0] * pc.scale, 0.0, 1.0), 0.25, 0.5, 1.0);
}

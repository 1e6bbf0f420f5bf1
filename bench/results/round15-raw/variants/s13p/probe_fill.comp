#version 460
// Probe: fills the HDR image with a varying pattern by imageStore (as a compute scene does).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, HDR_QUALIFIER) writeonly uniform image2D img;
void main() {
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(img)))) return;
    imageStore(img, p, vec4(float(p.x & 63) / 16.0, float(p.y & 31) / 8.0, float((p.x ^ p.y) & 15), 1.0));
}

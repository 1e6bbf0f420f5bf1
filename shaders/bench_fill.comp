#version 460
// Benchmark input: an rgba16f image written with one colour (push constant) by a compute pass, as a renderer's scene
// writes its HDR target. A transfer clear of the same colour can leave the image in a compressed clear state that reads
// at another speed than shader-written pixels do.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba16f) writeonly uniform image2D target;
layout(push_constant) uniform Push { vec4 colour; } pc;

void main() {
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(target)))) {
        return;
    }
    imageStore(target, p, pc.colour);
}

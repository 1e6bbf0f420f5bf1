#version 460
// Benchmark input: an rgba16f image written by a compute pass, as a renderer's scene writes its HDR target. Each pixel is
// the push constant's colour times 1 + n, n in [-NOISE, NOISE] from a hash of the pixel: every channel of a pixel scaled
// alike, so its luminance moves by at most log2(1 + NOISE) = 0.029 EV and a colour at least that far inside a histogram
// bin (0.118 EV wide by default) keeps every pixel in that bin, while the pixels' low bits vary as a render's do. A flat
// image of one colour would be an easy case for the GPU's compression that no scene is.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba16f) writeonly uniform image2D target;
layout(push_constant) uniform Push { vec4 colour; } pc;

const float NOISE = 0.02;

// A 32-bit integer hash (lowbias32): every pixel its own value, no pattern the compression could follow.
uint hash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

void main() {
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(target)))) {
        return;
    }
    const float u = float(hash(uint(p.y) * 65537u + uint(p.x)) >> 8u) * (1.0 / 16777216.0);   // [0, 1)
    const float scale = 1.0 + NOISE * (2.0 * u - 1.0);
    imageStore(target, p, vec4(pc.colour.rgb * scale, pc.colour.a));
}

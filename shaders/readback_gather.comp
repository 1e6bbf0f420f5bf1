#version 460
// A readback ring's capture region copied into its slot by compute rather than by a transfer command: the
// copies then run beside the compute passes recorded before them, where a transfer after a dispatch waits
// for it (an H200's 4K frame: 2.3 us shorter with the buffer regions gathered). One dispatch per region.
//
// Buffer regions (no IMAGE_FORMAT): `words` 32-bit words from word srcWord of binding 0 to word dstWord of
// the slot. Image regions (IMAGE_FORMAT, a float storage format qualifier, and PACK): the texels of the
// rectangle (x, y, width, height) of the storage image at binding 0, rows in order, packed back into the
// image's own bytes from word dstWord, as a copy would lay them out: PACK 1 RGBA16F (two words), 2
// B10G11R11 (one word), 3 RGBA32F (four words). Exact, since every value read came from that format; a NaN
// may come back as another NaN.
// The dispatch with writeSequence set also writes the frame's sequence number into the slot's first word.
//
//   set 0, binding 0: the source (storage buffer, or storage image in GENERAL layout)
//   set 0, binding 1: storage buffer, the slot (written)
//   push constants: see Push
layout(local_size_x = 64) in;
#ifdef IMAGE_FORMAT
layout(set = 0, binding = 0, IMAGE_FORMAT) readonly uniform image2D src;
#else
layout(std430, set = 0, binding = 0) readonly restrict buffer Src { uint w[]; } src;
#endif
layout(std430, set = 0, binding = 1) writeonly restrict buffer Dst { uint w[]; } dst;
layout(push_constant) uniform Push {
    uint srcWord;        // buffers: the region's first word in the source
    uint dstWord;        // the region's first word in the slot
    uint count;          // buffers: words; images: texels (width * height)
    uint sequence;
    uint writeSequence;
    uint width;          // images: texels per row
    ivec2 origin;        // images: the rectangle's corner (at byte 24: an ivec2 is 8-aligned)
} pc;

#if defined(IMAGE_FORMAT) && PACK == 2
// An unsigned float of 5 exponent bits and `mantissa` bits (B10G11R11's channels), from a value it holds exactly.
uint packUfloat(float v, int mantissa) {
    uint bits = floatBitsToUint(v);
    if (isnan(v)) {
        return (31u << mantissa) | 1u;
    }
    if (v <= 0.0) {
        return 0u;   // zero (these formats hold no negatives)
    }
    if (isinf(v)) {
        return 31u << mantissa;
    }
    int e = int((bits >> 23) & 0xffu) - 127;
    if (e < -14) {
        return uint(v * exp2(float(14 + mantissa)));   // a denormal: m * 2^-(14 + mantissa)
    }
    return uint(e + 15) << mantissa | (bits & 0x7fffffu) >> (23 - mantissa);
}
#endif

void main() {
    uint stride = gl_NumWorkGroups.x * 64u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
#ifdef IMAGE_FORMAT
        vec4 texel = imageLoad(src, pc.origin + ivec2(int(i % pc.width), int(i / pc.width)));
#if PACK == 1
        dst.w[pc.dstWord + 2u * i] = packHalf2x16(texel.xy);
        dst.w[pc.dstWord + 2u * i + 1u] = packHalf2x16(texel.zw);
#elif PACK == 2
        dst.w[pc.dstWord + i] = packUfloat(texel.x, 6) | packUfloat(texel.y, 6) << 11 | packUfloat(texel.z, 5) << 22;
#else
        uvec4 bits = floatBitsToUint(texel);
        dst.w[pc.dstWord + 4u * i] = bits.x;
        dst.w[pc.dstWord + 4u * i + 1u] = bits.y;
        dst.w[pc.dstWord + 4u * i + 2u] = bits.z;
        dst.w[pc.dstWord + 4u * i + 3u] = bits.w;
#endif
#else
        dst.w[pc.dstWord + i] = src.w[pc.srcWord + i];
#endif
    }
    if (pc.writeSequence != 0u && gl_GlobalInvocationID.x == 0u) {
        dst.w[0] = pc.sequence;
    }
}

package dev.tally.internal.readback;

import org.lwjgl.system.MemoryUtil;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The image formats a texture-region readback can turn into floats (four per texel, RGBA order), and
 * the conversion itself, straight from mapped memory into a caller's array: no allocation.
 */
final class TexelFormats {
    private TexelFormats() {
    }

    /** Bytes per texel of a supported format, or 0 when the format cannot be converted. */
    static int bytesPerTexel(int format) {
        return switch (format) {
            case VK_FORMAT_R16G16B16A16_SFLOAT -> 8;
            case VK_FORMAT_R32G32B32A32_SFLOAT -> 16;
            case VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB,
                 VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> 4;
            default -> 0;
        };
    }

    static String supported() {
        return "R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT, B10G11R11_UFLOAT_PACK32, R8G8B8A8_UNORM/SRGB or B8G8R8A8_UNORM/SRGB";
    }

    /** Converts {@code texels} texels at {@code address} into RGBA floats at {@code dst[offset..]}. */
    static void toFloats(int format, long address, int texels, float[] dst, int offset) {
        switch (format) {
            case VK_FORMAT_R16G16B16A16_SFLOAT -> {
                for (int i = 0; i < 4 * texels; i++) {
                    dst[offset + i] = halfToFloat(MemoryUtil.memGetShort(address + 2L * i));
                }
            }
            case VK_FORMAT_R32G32B32A32_SFLOAT -> {
                for (int i = 0; i < 4 * texels; i++) {
                    dst[offset + i] = MemoryUtil.memGetFloat(address + 4L * i);
                }
            }
            case VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB -> {
                boolean bgr = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
                boolean srgb = format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_B8G8R8A8_SRGB;
                for (int t = 0; t < texels; t++) {
                    long texel = address + 4L * t;
                    for (int c = 0; c < 4; c++) {
                        int source = bgr && c < 3 ? 2 - c : c;
                        float unorm = (MemoryUtil.memGetByte(texel + source) & 0xFF) / 255f;
                        // Alpha is linear in sRGB formats; only colour channels are encoded.
                        dst[offset + 4 * t + c] = srgb && c < 3 ? srgbToLinear(unorm) : unorm;
                    }
                }
            }
            case VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> {
                for (int t = 0; t < texels; t++) {
                    int word = MemoryUtil.memGetInt(address + 4L * t);
                    dst[offset + 4 * t] = smallFloatToFloat(word & 0x7ff, 6);
                    dst[offset + 4 * t + 1] = smallFloatToFloat((word >>> 11) & 0x7ff, 6);
                    dst[offset + 4 * t + 2] = smallFloatToFloat(word >>> 22, 5);
                    dst[offset + 4 * t + 3] = 1f;   // no alpha channel: opaque
                }
            }
            default -> throw new IllegalArgumentException("format " + format + " cannot be converted; expected " + supported());
        }
    }

    /**
     * An unsigned float of 5 exponent bits (bias 15, as a half) and {@code mantissaBits} mantissa bits (6 for
     * B10G11R11's red and green, 5 for its blue) to binary32, subnormals, infinity and NaN included.
     */
    static float smallFloatToFloat(int bits, int mantissaBits) {
        int exponent = bits >>> mantissaBits, mantissa = bits & ((1 << mantissaBits) - 1);
        if (exponent == 31) {
            return mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        }
        if (exponent == 0) {
            return Math.scalb((float) mantissa, -14 - mantissaBits);
        }
        return Math.scalb(1f + Math.scalb((float) mantissa, -mantissaBits), exponent - 15);
    }

    /** IEEE 754 binary16 to binary32, subnormals, infinities and NaN included. */
    static float halfToFloat(short half) {
        int h = half & 0xFFFF;
        int sign = (h & 0x8000) << 16;
        int exponent = (h >>> 10) & 0x1F;
        int mantissa = h & 0x3FF;
        if (exponent == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            // Zero or subnormal: mantissa x 2^-24, exact in binary32.
            float magnitude = mantissa * 0x1p-24f;
            return sign != 0 ? -magnitude : magnitude;
        }
        return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }

    /** The sRGB transfer function's inverse (IEC 61966-2-1). */
    static float srgbToLinear(float v) {
        return v <= 0.04045f ? v / 12.92f : (float) Math.pow((v + 0.055) / 1.055, 2.4);
    }
}

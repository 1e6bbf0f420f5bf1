package dev.tally.internal.readback;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/** Format conversion on host memory, against values from the format definitions. */
class TexelFormatsTest {
    @Test
    void halfFloatsDecodeNormalsSubnormalsInfinitiesAndNaN() {
        assertEquals(1f, TexelFormats.halfToFloat((short) 0x3C00));
        assertEquals(-2f, TexelFormats.halfToFloat((short) 0xC000));
        assertEquals(65504f, TexelFormats.halfToFloat((short) 0x7BFF));
        assertEquals(0x1p-14f, TexelFormats.halfToFloat((short) 0x0400), "smallest normal");
        assertEquals(0x3FFp-24f, TexelFormats.halfToFloat((short) 0x03FF), "largest subnormal");
        assertEquals(-0x1p-24f, TexelFormats.halfToFloat((short) 0x8001));
        assertEquals(Float.NEGATIVE_INFINITY, TexelFormats.halfToFloat((short) 0xFC00));
        assertTrue(Float.isNaN(TexelFormats.halfToFloat((short) 0x7E00)));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(TexelFormats.halfToFloat((short) 0x8000)));
    }

    @Test
    void eightBitFormatsSwizzleAndDecodeSrgb() {
        long a = MemoryUtil.nmemAlloc(4);
        try {
            MemoryUtil.memPutByte(a, (byte) 255);       // B in BGRA, R in RGBA
            MemoryUtil.memPutByte(a + 1, (byte) 0);
            MemoryUtil.memPutByte(a + 2, (byte) 51);    // 0.2
            MemoryUtil.memPutByte(a + 3, (byte) 188);   // alpha stays linear
            float[] rgba = new float[4];
            TexelFormats.toFloats(VK_FORMAT_B8G8R8A8_UNORM, a, 1, rgba, 0);
            assertArrayEquals(new float[]{0.2f, 0f, 1f, 188 / 255f}, rgba, 1e-7f);
            TexelFormats.toFloats(VK_FORMAT_R8G8B8A8_SRGB, a, 1, rgba, 0);
            // IEC 61966-2-1: ((0.2 + 0.055) / 1.055)^2.4 = 0.0331048
            assertArrayEquals(new float[]{1f, 0f, 0.0331048f, 188 / 255f}, rgba, 1e-6f);
        } finally {
            MemoryUtil.nmemFree(a);
        }
        assertEquals(0, TexelFormats.bytesPerTexel(VK_FORMAT_R8_UNORM), "unsupported formats are refused, not misread");
    }

    @Test
    void packedB10G11R11DecodesEachChannelWithItsOwnMantissa() {
        long a = MemoryUtil.nmemAlloc(8);
        try {
            // R = 1.0 (exponent 15, mantissa 0), G = 0x7BF: the largest 11-bit value, (1 + 63/64) * 2^15 = 65024,
            // B = 0x3E0 (exponent 31, mantissa 0): infinity. Second texel: R = 1 (the smallest subnormal, 2^-20),
            // G = 0x7C1 (NaN), B = 0x1F (largest 10-bit subnormal, 31 * 2^-19).
            MemoryUtil.memPutInt(a, 0x3C0 | 0x7BF << 11 | 0x3E0 << 22);
            MemoryUtil.memPutInt(a + 4, 1 | 0x7C1 << 11 | 0x1F << 22);
            float[] rgba = new float[8];
            TexelFormats.toFloats(VK_FORMAT_B10G11R11_UFLOAT_PACK32, a, 2, rgba, 0);
            assertEquals(1f, rgba[0]);
            assertEquals(65024f, rgba[1]);
            assertEquals(Float.POSITIVE_INFINITY, rgba[2]);
            assertEquals(1f, rgba[3], "no alpha: opaque");
            assertEquals(0x1p-20f, rgba[4]);
            assertTrue(Float.isNaN(rgba[5]));
            assertEquals(31 * 0x1p-19f, rgba[6]);
            assertEquals(4, TexelFormats.bytesPerTexel(VK_FORMAT_B10G11R11_UFLOAT_PACK32));
        } finally {
            MemoryUtil.nmemFree(a);
        }
    }
}

package dev.tally.readback;

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
}

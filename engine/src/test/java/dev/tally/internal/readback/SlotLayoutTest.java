package dev.tally.internal.readback;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;

import java.nio.FloatBuffer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R32G32B32A32_SFLOAT;

/**
 * A slot's payload becomes the same floats whether its buffer regions are copied in bulk from the slot's word view (as
 * a ring delivers) or read word by word, with the regions at their own places: a buffer region after an image region
 * starts past the image's padding, and the view's first payload word is past the slot's header.
 */
class SlotLayoutTest {
    private static final int HEADER_WORDS = ReadbackRingNode.HEADER_BYTES / 4;

    @Test
    void bulkAndWordByWordReadTheRegionsAtTheirPlaces() {
        SlotLayout layout = new SlotLayout();
        long a = layout.addBuffer(12);                                  // 3 floats at 0
        long image = layout.addImage(VK_FORMAT_R32G32B32A32_SFLOAT, 1); // 4 floats at 16 (padded from 12)
        long b = layout.addBuffer(8);                                   // 2 floats at 32
        assertEquals(0, a);
        assertEquals(16, image);
        assertEquals(32, b);
        long slot = MemoryUtil.nmemCalloc(1, ReadbackRingNode.HEADER_BYTES + 64);
        try {
            long payload = slot + ReadbackRingNode.HEADER_BYTES;
            MemoryUtil.memPutInt(slot, 0x7fc0ffee);   // the header is never a float of the sample
            float[] written = {1.5f, 2.5f, 3.5f, 99f, 10f, 20f, 30f, 40f, -1f, -2f};
            for (int i = 0; i < written.length; i++) {
                MemoryUtil.memPutFloat(payload + 4L * i, written[i]);
            }
            float[] expected = {1.5f, 2.5f, 3.5f, 10f, 20f, 30f, 40f, -1f, -2f};   // the padding word (99) left out
            assertEquals(expected.length, layout.floatCount());

            float[] wordByWord = new float[expected.length];
            layout.toFloats(payload, wordByWord);
            assertArrayEquals(expected, wordByWord);

            FloatBuffer words = MemoryUtil.memFloatBuffer(slot, (ReadbackRingNode.HEADER_BYTES + 64) / 4);
            float[] bulk = new float[expected.length];
            layout.toFloats(payload, words, HEADER_WORDS, bulk);
            assertArrayEquals(expected, bulk);
        } finally {
            MemoryUtil.nmemFree(slot);
        }
    }

    @Test
    void aSubscriberGetsTheSlotsFloatsThroughTheWordView() {
        SlotLayout layout = new SlotLayout();
        layout.addBuffer(4 * 8);
        long slot = MemoryUtil.nmemCalloc(1, ReadbackRingNode.HEADER_BYTES + 4 * 8);
        SampleHandOut handOut = new SampleHandOut("test", 64, 3, dev.tally.readback.TimeSource.CALIBRATED);
        try {
            for (int i = 0; i < 8; i++) {
                MemoryUtil.memPutFloat(slot + ReadbackRingNode.HEADER_BYTES + 4L * i, 0.25f * i + 7);
            }
            MemoryUtil.memPutInt(slot, 5);   // frame 5's sequence number
            float[] into = new float[8];
            handOut.subscribe(null, into, null);
            FloatBuffer words = MemoryUtil.memFloatBuffer(slot, (ReadbackRingNode.HEADER_BYTES + 4 * 8) / 4);
            assertTrue(handOut.deliver(slot, words, layout, 5, 6, 8, 0, 1_000_000, null));
            assertArrayEquals(new float[]{7f, 7.25f, 7.5f, 7.75f, 8f, 8.25f, 8.5f, 8.75f}, into);
        } finally {
            handOut.close();
            MemoryUtil.nmemFree(slot);
        }
    }
}

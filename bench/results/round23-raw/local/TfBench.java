package dev.tally.internal.readback;
import org.lwjgl.system.MemoryUtil;
import java.nio.FloatBuffer;
public class TfBench {
    public static void main(String[] a) {
        // The demo's capture: the total (4 B), the exposure record (64 B), the normalized histogram (1028 B), one RGBA32F texel.
        SlotLayout l = new SlotLayout();
        l.addBuffer(4); l.addBuffer(64); l.addBuffer(1028); l.addImage(org.lwjgl.vulkan.VK10.VK_FORMAT_R32G32B32A32_SFLOAT, 1);
        long slot = MemoryUtil.nmemCalloc(1, 16 + 2048);
        FloatBuffer words = MemoryUtil.memFloatBuffer(slot, (16 + 2048) / 4);
        float[] dst = new float[l.floatCount()];
        long payload = slot + 16; float sink = 0;
        for (int round = 0; round < 6; round++) {
            int n = 2_000_000;
            long t0 = System.nanoTime(); for (int i = 0; i < n; i++) { l.toFloats(payload, dst); sink += dst[i % dst.length]; }
            long t1 = System.nanoTime(); for (int i = 0; i < n; i++) { l.toFloats(payload, words, 4, dst); sink += dst[i % dst.length]; }
            long t2 = System.nanoTime();
            System.out.printf("%d floats: word by word %.1f ns, bulk %.1f ns%n", dst.length, (t1 - t0) / (double) n, (t2 - t1) / (double) n);
        }
        System.out.println(sink);
    }
}

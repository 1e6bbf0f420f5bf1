package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.EXTDebugUtils;
import org.lwjgl.vulkan.VkDebugUtilsLabelEXT;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The kept pass labels, read back as Vulkan reads them: one per name, its text that name, none past the capacity. No GPU. */
class PassLabelsTest {
    private static String textOf(long label) {
        return MemoryUtil.memUTF8(MemoryUtil.memGetAddress(label + VkDebugUtilsLabelEXT.PLABELNAME));
    }

    @Test
    void eachNameKeepsOneLabelHoldingItsText() {
        try (PassLabels labels = new PassLabels()) {
            Map<String, Long> made = new HashMap<>();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < PassLabels.CAPACITY; i++) {
                    String name = (i % 3 == 0 ? "view " + i + "/é" : "pass" + i);   // a fresh but equal string each round
                    long label = labels.of(name);
                    assertNotEquals(0L, label, name);
                    assertEquals(EXTDebugUtils.VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, VkDebugUtilsLabelEXT.nsType(label), name + ": sType");
                    assertEquals(0L, MemoryUtil.memGetAddress(label + VkDebugUtilsLabelEXT.PNEXT), name + ": pNext");
                    assertEquals(name, textOf(label), "the label's text");
                    Long before = made.putIfAbsent(name, label);
                    if (before != null) {
                        assertEquals(before.longValue(), label, name + ": the label made for it before");
                    }
                }
            }
            assertEquals(PassLabels.CAPACITY, labels.size());
            assertEquals(0L, labels.of("one name too many"), "past the capacity: no kept label");
            assertEquals(PassLabels.CAPACITY, labels.size());
        }
    }

    /**
     * Frames that ask for the same names in the same order, then in another order, a subset, a longer run than the
     * remembered order holds, and names that are equal but other objects: every answer is the label of the name asked for.
     */
    @Test
    void namesAskedForInAnyOrderGetTheirOwnLabels() {
        try (PassLabels labels = new PassLabels()) {
            java.util.Random random = new java.util.Random(7);
            String[] pool = new String[100];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = "pass " + i;
            }
            int[] sequence = new int[12];
            for (int i = 0; i < sequence.length; i++) {
                sequence[i] = i;
            }
            Map<String, Long> made = new HashMap<>();
            for (int frame = 0; frame < 4000; frame++) {
                int change = random.nextInt(10);
                if (change == 0) {
                    sequence = new int[1 + random.nextInt(90)];   // up to more passes than the remembered order holds
                    for (int i = 0; i < sequence.length; i++) {
                        sequence[i] = random.nextInt(pool.length);
                    }
                } else if (change == 1 && sequence.length > 1) {
                    sequence = java.util.Arrays.copyOfRange(sequence, 1, sequence.length);   // the first pass gone
                }
                for (int k : sequence) {
                    String name = change == 2 ? new String(pool[k]) : pool[k];   // an equal name that is another object
                    long label = labels.of(name);
                    assertEquals(name, textOf(label), "frame " + frame + ": the label of '" + name + "'");
                    assertEquals(made.computeIfAbsent(name, n -> label).longValue(), label, "frame " + frame + ": the label made for '" + name + "' before");
                }
            }
        }
    }
}

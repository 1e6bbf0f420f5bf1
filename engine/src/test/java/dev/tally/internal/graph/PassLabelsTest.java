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
}

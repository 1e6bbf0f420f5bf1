package dev.tally.internal.shader;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;

import java.nio.LongBuffer;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The descriptor-set cache on lavapipe, validation on: a lookup of bindings met among the last few is answered without the
 * map and returns the set those bindings were written into; eviction drops the least recently used set, counting the uses
 * answered that way.
 */
class DescriptorSetsTest {
    private static final long STRIDE = 256;   // every device's minStorageBufferOffsetAlignment divides 256

    @Test
    void bindingsUsedInTurnAreAnsweredByTheRecentEntriesWithTheirOwnSets() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of());
             GpuBuffer buffer = tally.createBuffer("bound", 8 * STRIDE, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            VulkanContext ctx = Engine.of(tally).context();
            long layout = layout(ctx);
            try (DescriptorSets sets = new DescriptorSets(ctx, "test", layout, 1, 8)) {
                Bindings a = at(buffer, 0), b = at(buffer, 1), c = at(buffer, 2);
                long setA = sets.get(a), setB = sets.get(b), setC = sets.get(c);
                assertEquals(3, List.of(setA, setB, setC).stream().distinct().count(), "three bindings, three sets");
                assertEquals(0, sets.recentHits(), "first uses are written, not found");
                for (int i = 0; i < 10; i++) {
                    // A ring's slots in turn, each bindings object refilled as a pass refills its own.
                    assertEquals(setA, sets.get(at(buffer, 0)));
                    assertEquals(setB, sets.get(at(buffer, 1)));
                    assertEquals(setC, sets.get(at(buffer, 2)));
                }
                assertEquals(30, sets.recentHits(), "each of the 30 lookups of a set used in the last four is answered without the map");
                assertEquals(3, sets.size());
                assertEquals(0, sets.evictions());
                assertEquals(0, tally.diagnostics().validationMessages());
            } finally {
                vkDestroyDescriptorSetLayout(ctx.device(), layout, null);
            }
        }
    }

    @Test
    void evictionDropsTheLeastRecentlyUsedSetEvenWhenItsUsesBypassedTheMap() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of());
             GpuBuffer buffer = tally.createBuffer("bound", 8 * STRIDE, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            VulkanContext ctx = Engine.of(tally).context();
            long layout = layout(ctx);
            try (DescriptorSets sets = new DescriptorSets(ctx, "test", layout, 1, 5)) {
                for (int k = 0; k < 5; k++) {
                    sets.get(at(buffer, k));   // 0..4 made; the map's eldest is 0
                }
                long set1 = sets.get(at(buffer, 1));   // found among the recent entries: the map's order is not told
                assertEquals(1, sets.recentHits());
                sets.get(at(buffer, 5));   // full: drops 0, the least recently used
                assertEquals(1, sets.evictions());
                sets.get(at(buffer, 2));   // from the map
                sets.get(at(buffer, 6));   // full: the map's eldest is 1, used three lookups ago; 3 is the least recently used
                assertEquals(2, sets.evictions());
                long hits = sets.recentHits();
                assertEquals(set1, sets.get(at(buffer, 1)), "1 was used since 3 and kept");
                assertEquals(2, sets.evictions(), "finding 1 made nothing");
                assertEquals(hits + 1, sets.recentHits());
                sets.get(at(buffer, 3));
                assertEquals(3, sets.evictions(), "3 was the one dropped, so it is made again");
                assertEquals(5, sets.size());
                assertEquals(0, tally.diagnostics().validationMessages());
            } finally {
                vkDestroyDescriptorSetLayout(ctx.device(), layout, null);
            }
        }
    }

    private static Bindings at(GpuBuffer buffer, int slot) {
        return new Bindings().buffer(buffer, slot * STRIDE, 64);
    }

    private static long layout(VulkanContext ctx) {
        try (MemoryStack stack = stackPush()) {
            VkDescriptorSetLayoutBinding.Buffer binding = VkDescriptorSetLayoutBinding.calloc(1, stack);
            binding.get(0).binding(0).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateDescriptorSetLayout(ctx.device(), VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().pBindings(binding), null, p),
                    "vkCreateDescriptorSetLayout(test)");
            return p.get(0);
        }
    }
}

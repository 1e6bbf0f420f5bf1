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
 * The descriptor-set cache on lavapipe, validation on: a lookup of bindings among the recent ones is answered without the
 * map and returns the set those bindings were written into; eviction passes over the recent sets, whose uses the map's
 * order does not see.
 */
class DescriptorSetsTest {
    private static final long STRIDE = 256;   // every device's minStorageBufferOffsetAlignment divides 256

    @Test
    void bindingsUsedInTurnAreAnsweredByTheRecentEntriesWithTheirOwnSets() {
        withSets(8, 8, (buffer, sets) -> {
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
            assertEquals(30, sets.recentHits(), "each of the 30 lookups of a recent set is answered without the map");
            assertEquals(3, sets.size());
            assertEquals(0, sets.evictions());
        });
    }

    @Test
    void bindingsOfTheSameResourcesButAnotherSizeHaveTheirOwnSet() {
        withSets(8, 8, (buffer, sets) -> {
            // The recent rows are told apart by a digest of resources and offsets first: equal here, so the entries decide.
            Bindings small = new Bindings().buffer(buffer, 0, 64), large = new Bindings().buffer(buffer, 0, 128);
            assertEquals(small.digest(), large.digest(), "the same resource at the same offset: one digest");
            long setSmall = sets.get(small), setLarge = sets.get(large);
            assertNotEquals(setSmall, setLarge, "another size, another set");
            Bindings refilled = new Bindings();   // one object refilled for each lookup, as a pass refills its own
            for (int i = 0; i < 3; i++) {
                assertEquals(setSmall, sets.get(refilled.clear().buffer(buffer, 0, 64)));
                assertEquals(setLarge, sets.get(refilled.clear().buffer(buffer, 0, 128)));
            }
            assertEquals(6, sets.recentHits());
        });
    }

    @Test
    void evictionPassesOverSetsInUseWhoseUsesBypassedTheMap() {
        int capacity = RecentSets.ROWS + 4;
        withSets(capacity, capacity + 8, (buffer, sets) -> {
            for (int k = 0; k < capacity; k++) {
                sets.get(at(buffer, k));   // 0..19 made; the recent rows hold 4..19
            }
            for (int k = 0; k < 4; k++) {
                sets.get(at(buffer, k));   // 0..3 from the map, into the rows of 4..7
            }
            long set8 = sets.get(at(buffer, 8));   // from the rows: the map still has 8 as its eldest but 4..7
            assertEquals(1, sets.recentHits());
            for (int k = capacity; k < capacity + 4; k++) {
                sets.get(at(buffer, k));   // full: 4..7 dropped, the least recently used
            }
            assertEquals(4, sets.evictions());
            sets.get(at(buffer, capacity + 4));   // full: the map's eldest is 8, in use; 9 goes
            assertEquals(5, sets.evictions());
            assertEquals(set8, sets.get(at(buffer, 8)), "8, used since 9, is kept");
            assertEquals(5, sets.evictions(), "finding 8 made nothing");
            assertEquals(2, sets.recentHits());
            sets.get(at(buffer, 9));
            assertEquals(6, sets.evictions(), "9 was the one dropped, so it is made again");
            assertEquals(capacity, sets.size());
        });
    }

    @Test
    void aSetDroppedIsNeverFoundAgain() {
        withSets(2, 4, (buffer, sets) -> {
            sets.get(at(buffer, 0));
            sets.get(at(buffer, 1));
            sets.get(at(buffer, 2));   // full, every set a recent one: the eldest, 0, goes (freed once the GPU is done)
            assertEquals(1, sets.evictions());
            sets.get(at(buffer, 0));
            assertEquals(0, sets.recentHits(), "0's set was freed: it is written anew, not found among the recent ones");
            assertEquals(2, sets.evictions());
            assertEquals(2, sets.size());
        });
    }

    /** The buffer's {@code slots} ranges, bound as they come, and a cache of {@code capacity} sets; no validation message after. */
    private static void withSets(int capacity, long slots, java.util.function.BiConsumer<GpuBuffer, DescriptorSets> test) {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of());
             GpuBuffer buffer = tally.createBuffer("bound", slots * STRIDE, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            VulkanContext ctx = Engine.of(tally).context();
            long layout = layout(ctx);
            try (DescriptorSets sets = new DescriptorSets(ctx, "test", layout, 1, capacity)) {
                test.accept(buffer, sets);
            } finally {
                vkDestroyDescriptorSetLayout(ctx.device(), layout, null);
            }
            assertEquals(0, tally.diagnostics().validationMessages());
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

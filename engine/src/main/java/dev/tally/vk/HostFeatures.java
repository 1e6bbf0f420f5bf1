package dev.tally.vk;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.lwjgl.system.MemoryUtil.NULL;

/**
 * What a host created its device with, as far as Tally cares: which of Tally's features
 * ({@link Requirements#features()}, {@link Requirements#optionalFeatures()}) it enabled and its enabled device extensions. Vulkan cannot be
 * queried for enabled features, so this is read from the host's own {@code vkCreateDevice} chain.
 * Passed to {@code Tally.wrap} in {@link dev.tally.Tally.Host}.
 *
 * @param features   the names of Tally's features the device was created with ({@link Requirements.Feature#name()})
 * @param extensions the device extensions it was created with
 */
public record HostFeatures(Set<String> features, Set<String> extensions) {
    /**
     * Copies both sets.
     *
     * @param features   the names of Tally's features the device was created with, copied
     * @param extensions the device extensions it was created with, copied
     */
    public HostFeatures {
        features = Set.copyOf(features);
        extensions = Set.copyOf(extensions);
    }

    /**
     * Read from the create info the host passed to {@code vkCreateDevice}: its pNext chain and extension names.
     *
     * @param createInfo the create info, still allocated (call before freeing it)
     * @return what it enables of Tally's needs
     */
    public static HostFeatures of(VkDeviceCreateInfo createInfo) {
        Set<String> extensions = new HashSet<>();
        PointerBuffer names = createInfo.ppEnabledExtensionNames();
        if (names != null) {
            for (int i = 0; i < names.remaining(); i++) {
                extensions.add(MemoryUtil.memUTF8(names.get(names.position() + i)));
            }
        }
        return of(createInfo.pNext(), extensions);
    }

    /**
     * Read from the feature chain the host enabled (a VkPhysicalDeviceFeatures2 and what it chains), with its extensions.
     *
     * @param chain      the head of the feature chain
     * @param extensions the device extensions enabled
     * @return what they enable of Tally's needs
     */
    public static HostFeatures of(VkPhysicalDeviceFeatures2 chain, Collection<String> extensions) {
        return of(chain.address(), extensions);
    }

    private static HostFeatures of(long chain, Collection<String> extensions) {
        Set<String> enabled = new HashSet<>();
        List<Requirements.Feature> known = new ArrayList<>(Requirements.get().features());
        known.addAll(Requirements.get().optionalFeatures());
        for (Requirements.Feature f : known) {
            long standalone = Requirements.find(chain, f.standaloneSType());
            long core = Requirements.find(chain, f.sType());
            if (standalone != NULL && MemoryUtil.memGetInt(standalone + f.standaloneOffset()) != 0
                    || core != NULL && MemoryUtil.memGetInt(core + f.offset()) != 0) {
                enabled.add(f.name());
            }
        }
        return new HostFeatures(enabled, new HashSet<>(extensions));
    }

    /**
     * This record with {@code feature} left out: what a host that forgot it would report (for tests and tools).
     *
     * @param feature a feature name
     * @return a new record without it
     */
    public HostFeatures without(String feature) {
        Set<String> fewer = new HashSet<>(features);
        fewer.remove(feature);
        return new HostFeatures(fewer, extensions);
    }
}

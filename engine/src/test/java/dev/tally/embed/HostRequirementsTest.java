package dev.tally.embed;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.TimeSource;
import dev.tally.vk.HostFeatures;
import dev.tally.vk.Requirements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceTimelineSemaphoreFeatures;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;
import static org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;

/**
 * What Tally needs of a host's device, stated and checked: {@code Tally.wrap} refuses a device that lacks a
 * feature (or is below Vulkan 1.3) with one line naming the feature and the struct, before it creates
 * anything; {@code enableIn} merges Tally's features into a host's chain.
 */
class HostRequirementsTest {
    private static Config config() {
        return Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
    }

    private static Tally.Host withFeatures(HostRenderer host, HostFeatures enabled) {
        Tally.Host h = host.host();
        return new Tally.Host(h.instance(), h.physicalDevice(), h.device(), h.queue(), h.queueFamily(), h.vmaAllocator(), h.queueLock(),
                h.debugUtils(), enabled);
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = {"timelineSemaphore:VkPhysicalDeviceVulkan12Features", "synchronization2:VkPhysicalDeviceVulkan13Features",
            "maintenance4:VkPhysicalDeviceVulkan13Features"})
    void wrapRefusesADeviceWithoutAFeatureNamingItAndItsStruct(String featureAndStruct) {
        String feature = featureAndStruct.split(":")[0];
        String struct = featureAndStruct.split(":")[1];
        try (HostRenderer host = new HostRenderer(2)) {
            long objects = host.device.objectsCreated();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tally.wrap(config(), withFeatures(host, host.device.enabledFeatures().without(feature))).close());
            assertTrue(e.getMessage().startsWith("Tally.wrap: the device was created without " + feature + " (" + struct + "." + feature
                    + " = VK_TRUE"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            assertEquals(objects, host.device.objectsCreated(), "nothing was created on the host's device");
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void theGraphicsPathsAreCheckedWhenFirstAskedFor() {
        try (HostRenderer host = new HostRenderer(2);
             Tally tally = Tally.wrap(config(), withFeatures(host, host.device.enabledFeatures().without("dynamicRendering")))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, tally::tonemapper);
            assertTrue(e.getMessage().startsWith("Tally.tonemapper: the device was created without dynamicRendering"
                    + " (VkPhysicalDeviceVulkan13Features.dynamicRendering = VK_TRUE"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
        }
    }

    @Test
    void aVkDeviceMadeForVulkan11IsRefusedBeforeAnyVulkanCall() {
        try (HostRenderer host = new HostRenderer(2); MemoryStack stack = stackPush()) {
            // The same device handle as LWJGL sees it when the host made its VkDevice for 1.1: no 1.2/1.3 commands loaded.
            VkDevice old = new VkDevice(host.device.device().address(), host.device.physicalDevice(),
                    VkDeviceCreateInfo.calloc(stack).sType$Default(), VK_API_VERSION_1_1);
            assertEquals(0L, old.getCapabilities().vkGetSemaphoreCounterValue, "the 1.2 command is absent, as for a 1.1 device");
            Tally.Host h = host.host();
            Tally.Host host11 = new Tally.Host(h.instance(), h.physicalDevice(), old, h.queue(), h.queueFamily(), h.vmaAllocator(), h.queueLock(),
                    h.debugUtils(), h.enabled());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tally.wrap(config(), host11).close());
            assertTrue(e.getMessage().startsWith("Tally.wrap: the VkDevice was made for Vulkan 1.1"), e.getMessage());
            assertTrue(e.getMessage().contains("VK_API_VERSION_1_3"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
        }
    }

    @Test
    void aWrappedRingsTimestampSourceFollowsTheExtensionTheHostEnabled() {
        try (HostRenderer host = new HostRenderer(2)) {
            boolean offered = host.device.enabledFeatures().extensions().stream().anyMatch(e -> e.endsWith("_calibrated_timestamps"));
            System.err.println("HostRequirementsTest: this device " + (offered ? "offers" : "does not offer")
                    + " calibrated timestamps; the host-estimate side is covered by RenderPassHostTest");
            try (Tally tally = Tally.wrap(config(), host.host()); ReadbackRing ring = tally.readback("ages", 16)) {
                assertEquals(offered ? TimeSource.CALIBRATED : TimeSource.HOST_ESTIMATE, ring.timeSource());
                assertEquals(ring.timeSource(), ring.stats().timeSource(), "the stats report the same source");
            }
        }
    }

    @Test
    void aQueueFamilyTheDeviceDoesNotHaveIsRefusedInOneLine() {
        try (HostRenderer host = new HostRenderer(2)) {
            Tally.Host h = host.host();
            Tally.Host wrong = new Tally.Host(h.instance(), h.physicalDevice(), h.device(), h.queue(), 99, h.vmaAllocator(), h.queueLock(),
                    h.debugUtils(), h.enabled());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tally.wrap(config(), wrong).close());
            assertTrue(e.getMessage().startsWith("Tally.wrap: queue family 99 does not exist (the device has "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
        }
    }

    @Test
    void aHostWithoutEnabledFeaturesIsToldHowToSayThem() {
        try (HostRenderer host = new HostRenderer(2)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tally.wrap(config(), withFeatures(host, null)).close());
            assertTrue(e.getMessage().startsWith("Tally.wrap: Host.enabled is null; pass HostFeatures.of(createInfo)"), e.getMessage());
        }
    }

    @Test
    void enableInSetsEveryFeatureInAnEmptyChainAndUsesAStandaloneStructWhereTheHostHasOne() {
        Requirements r = Tally.requirements();
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceFeatures2 empty = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default();
            r.enableIn(empty, stack, Requirements.allParts());
            assertEquals(Set.of("timelineSemaphore", "synchronization2", "maintenance4", "dynamicRendering", "shaderDemoteToHelperInvocation"),
                    HostFeatures.of(empty, List.of()).features());

            VkPhysicalDeviceTimelineSemaphoreFeatures timeline = VkPhysicalDeviceTimelineSemaphoreFeatures.calloc(stack).sType$Default();
            VkPhysicalDeviceFeatures2 host = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(timeline.address());
            r.enableIn(host, stack, Set.of(Requirements.Part.GRAPH));
            assertTrue(timeline.timelineSemaphore(), "set in the host's own stand-alone struct");
            for (long s = host.pNext(); s != 0; s = org.lwjgl.system.MemoryUtil.memGetAddress(s + 8)) {
                assertNotEquals(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, org.lwjgl.system.MemoryUtil.memGetInt(s),
                        "no VkPhysicalDeviceVulkan12Features beside the stand-alone struct (Vulkan forbids both)");
            }
            assertEquals(Set.of("timelineSemaphore", "synchronization2", "maintenance4"), HostFeatures.of(host, List.of()).features());
        }
    }
}

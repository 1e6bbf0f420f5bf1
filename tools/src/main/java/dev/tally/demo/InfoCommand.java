package dev.tally.demo;

import dev.tally.internal.reduce.ReduceSettings;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.internal.vk.DeviceInfo;
import dev.tally.internal.vk.DeviceSelection;
import dev.tally.internal.vk.PhysicalDevices;
import dev.tally.vk.VulkanException;
import picocli.CommandLine;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./tally info}: every device Tally could pick, the chosen one, its driver, Vulkan version,
 * subgroup size and limits. A --device that matches none is reported and the list is still printed:
 * listing the choices is what this command is for.
 */
@CommandLine.Command(name = "info", mixinStandardHelpOptions = true,
        description = "Print the Vulkan devices Tally can use, the one it would use and its limits.")
public final class InfoCommand implements Callable<Integer> {
    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        Config config = common.config();
        DeviceSelection requested = DeviceSelection.resolve(config.string("device.select"));
        Tally opened;
        boolean unmatched = false;
        try {
            opened = Tally.open(config, List.of());
        } catch (VulkanException e) {
            if (requested.isAuto() || e.isDeviceLost() || e.isOutOfMemory()) {
                throw e;
            }
            // Perhaps the choice names no device: look with the automatic choice, and say so if none matches.
            opened = Tally.open(config.with("device.select", "auto"), List.of());
            if (matchesAny(requested, PhysicalDevices.list(Engine.of(opened).context().instance()))) {
                opened.close();
                throw e;   // the device exists but failed otherwise: that is the error to report
            }
            unmatched = true;
        }
        try (Tally rt = opened) {
            List<DeviceInfo> all = PhysicalDevices.list(Engine.of(rt).context().instance());
            System.out.println("devices:");
            for (DeviceInfo d : all) {
                System.out.printf("  %d: %s (%s, Vulkan %s)%n", d.index(), d.name(), d.type(), d.apiVersion());
            }
            if (unmatched) {
                System.out.println(noMatch(requested, all.size()) + "; with --device auto Tally would choose:");
            }
            System.out.println("chosen " + Engine.of(rt).context().info().describe());
            var s = Engine.of(rt).reducer().settings();
            String unroll = s.largeUnroll() == s.unroll() ? Integer.toString(s.unroll())
                    : s.unroll() + " (" + s.largeUnroll() + " from " + ReduceSettings.LARGE_INPUT + " floats)";
            System.out.printf("reduction: workgroup %d, up to %d groups, unroll %s, single dispatch up to %d floats, %d floats per binding%n",
                    s.workgroupSize(), s.groups(), unroll, s.singleDispatchMax(), s.chunkElements());
            System.out.println("timestamp queries: reset " + (Engine.of(rt).context().hostQueryReset() ? "from the host (hostQueryReset)"
                    : "by commands in the frame (the device has no hostQueryReset)"));
            System.out.println("validation: " + (Engine.of(rt).context().options().validation() ? "on (with synchronization validation)" : "off"));
        }
        return 0;
    }

    private static boolean matchesAny(DeviceSelection selection, List<DeviceInfo> devices) {
        int index = selection.index();
        String part = selection.spec().toLowerCase(Locale.ROOT);
        return devices.stream().anyMatch(d -> index >= 0 ? d.index() == index : d.name().toLowerCase(Locale.ROOT).contains(part));
    }

    private static String noMatch(DeviceSelection selection, int count) {
        String devices = count == 1 ? "1 device" : count + " devices";
        return selection.index() >= 0
                ? "device index " + selection.index() + " does not exist: there " + (count == 1 ? "is 1 device (index 0)" : "are " + devices + " (0.." + (count - 1) + ")")
                : "no device name contains '" + selection.spec() + "' (" + devices + " listed above)";
    }
}

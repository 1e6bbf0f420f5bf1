package dev.tally.demo;

import dev.tally.TallyRuntime;
import dev.tally.vk.DeviceInfo;
import dev.tally.vk.PhysicalDevices;
import picocli.CommandLine;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./tally info}: the chosen device, its driver, Vulkan version, subgroup size and limits. */
@CommandLine.Command(name = "info", mixinStandardHelpOptions = true, description = "Print the Vulkan device Tally would use and its limits.")
final class InfoCommand implements Callable<Integer> {
    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        try (TallyRuntime rt = TallyRuntime.open(common.config(), List.of())) {
            List<DeviceInfo> all = PhysicalDevices.list(rt.context().instance());
            System.out.println("devices:");
            for (DeviceInfo d : all) {
                System.out.printf("  %d: %s (%s, Vulkan %s)%n", d.index(), d.name(), d.type(), d.apiVersion());
            }
            System.out.println("chosen " + rt.context().info().describe());
            var s = rt.reducer().settings();
            System.out.printf("reduction: workgroup %d, up to %d groups, unroll %d, single dispatch up to %d floats, %d floats per binding%n",
                    s.workgroupSize(), s.groups(), s.unroll(), s.singleDispatchMax(), s.chunkElements());
            System.out.println("validation: " + (rt.context().options().validation() ? "on (with synchronization validation)" : "off"));
        }
        return 0;
    }
}

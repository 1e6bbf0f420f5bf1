package dev.tally.demo;

import dev.tally.config.Config;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Options every GPU subcommand shares: device, validation, configuration. */
public final class CommonOptions {
    @CommandLine.Option(names = "--validate", description = "Khronos validation with synchronization validation")
    boolean validate;

    @CommandLine.Option(names = "--device", paramLabel = "N|NAME", description = "device index (see ./tally info) or part of its name")
    String device;

    @CommandLine.Option(names = "--config", paramLabel = "FILE", description = "configuration file (key = value lines)")
    Path configFile;

    @CommandLine.Option(names = "--set", paramLabel = "KEY=VALUE", description = "override one configuration key")
    List<String> overrides = new ArrayList<>();

    /**
     * The demo and tools compile their shaders at run time, always: the demo's own kernels, the benchmarks'
     * variants and live reload need a compiler; the SPIR-V built into the engine jar covers the engine's only.
     */
    public static final String LIVE_SHADERS = "shaders.live=true";

    public Config config() {
        List<String> all = new ArrayList<>(overrides);
        if (validate) {
            all.add("validation.enabled=true");
        }
        if (device != null) {
            all.add("device.select=" + device);
        }
        all.add(LIVE_SHADERS);
        return Config.load(configFile, all);
    }
}

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
     * The tools compile their shaders at run time (the benchmarks' variants need a compiler), and so does the demo in a
     * window (live reload); a headless demo or soak runs the SPIR-V its build made (demo/pom.xml's ShaderBuild step).
     */
    public static final String LIVE_SHADERS = "shaders.live=true";

    /** The configuration, shaders compiled live. */
    public Config config() {
        return config(true);
    }

    /** The configuration, shaders compiled live where {@code live} (a {@code --set shaders.live=...} of the user's still applies). */
    public Config config(boolean live) {
        List<String> all = new ArrayList<>(overrides);
        if (validate) {
            all.add("validation.enabled=true");
        }
        if (device != null) {
            all.add("device.select=" + device);
        }
        if (live) {
            all.add(LIVE_SHADERS);
        }
        return Config.load(configFile, all);
    }
}

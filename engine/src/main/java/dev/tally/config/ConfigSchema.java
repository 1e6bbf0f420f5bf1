package dev.tally.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every key Tally understands. The packaged config/tally.conf documents the same keys for users. */
public final class ConfigSchema {
    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();

    private ConfigSchema() {
        add(ConfigKey.string("device.select", "auto",
                "Vulkan device: auto (discrete > integrated > virtual > CPU), an index from ./tally info, or part of its name"));
        add(ConfigKey.bool("validation.enabled", "false", "Khronos validation layer with synchronization validation"));
        add(ConfigKey.integer("frames.inFlight", "2", 1, 4, false, "frames the CPU may record ahead of the GPU"));
        add(ConfigKey.integer("reduce.workgroupSize", "auto", 32, 1024, true, "invocations per workgroup (power of two)"));
        add(ConfigKey.integer("reduce.groups", "auto", 1, 65535, true, "workgroups of the first pass; auto sizes to the device"));
        add(ConfigKey.integer("reduce.unroll", "auto", 1, 8, true, "vec4 loads in flight per invocation per step"));
        add(ConfigKey.integer("reduce.singleDispatchMax", "auto", 0, 1L << 30, true,
                "inputs up to this many floats take one dispatch; the last workgroup to finish folds the partials"));
        add(ConfigKey.integer("reduce.minSteps", "auto", 1, 1024, true,
                "loop steps each invocation gets before another workgroup is added"));
        add(ConfigKey.real("exposure.minEV", "-10", -160, 160, "lowest EV of the luminance histogram (bin 1's lower edge)"));
        add(ConfigKey.real("exposure.maxEV", "20", -160, 160, "highest EV of the luminance histogram"));
        add(ConfigKey.real("exposure.lowPercentile", "0.10", 0, 1, "metering window start, in samples (0..1)"));
        add(ConfigKey.real("exposure.highPercentile", "0.90", 0, 1, "metering window end, in samples (0..1)"));
        add(ConfigKey.real("exposure.middleGrey", "0.18", 1e-6, 1e6, "luminance the metered mean is mapped to"));
        add(ConfigKey.real("exposure.compensation", "0", -20, 20, "stops added to the computed exposure"));
        add(ConfigKey.real("exposure.brightenSpeed", "3", 1e-3, 1000, "adaptation speed (stops per second) when the scene gets brighter"));
        add(ConfigKey.real("exposure.darkenSpeed", "1", 1e-3, 1000, "adaptation speed (stops per second) when the scene gets darker"));
        add(ConfigKey.choice("exposure.metering", "uniform", java.util.List.of("uniform", "centre", "mask"), "how pixels are weighted"));
        add(ConfigKey.real("hud.scale", "0.02", 0.005, 0.25, "HUD text line height as a fraction of the output height"));
        add(ConfigKey.integer("readback.slots", "3", 2, 16, false, "readback ring slots; must exceed frames.inFlight"));
        add(ConfigKey.string("cache.dir", "auto", "where SPIR-V and the pipeline cache are kept; auto = ~/.cache/tally"));
        add(ConfigKey.string("debug.injectFault", "none",
                "test hook: none, device-lost@N (the N-th queue submission fails with VK_ERROR_DEVICE_LOST) or oom@N"
                        + " (the N-th buffer allocation fails with VK_ERROR_OUT_OF_DEVICE_MEMORY); checked when the runtime opens"));
    }

    private void add(ConfigKey k) {
        keys.put(k.name(), k);
    }

    public static ConfigSchema standard() {
        return new ConfigSchema();
    }

    public ConfigKey get(String name) {
        return keys.get(name);
    }

    public Map<String, ConfigKey> keys() {
        return Map.copyOf(keys);
    }

    public List<String> names() {
        return List.copyOf(keys.keySet());
    }
}

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
        add(ConfigKey.integer("readback.slots", "3", 2, 16, false, "readback ring slots; must exceed frames.inFlight"));
        add(ConfigKey.string("cache.dir", "auto", "where SPIR-V and the pipeline cache are kept; auto = ~/.cache/tally"));
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

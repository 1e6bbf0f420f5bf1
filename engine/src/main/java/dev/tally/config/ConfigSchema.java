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
        add(ConfigKey.integer("reduce.unroll", "auto", 1, 8, true,
                "vec4 loads in flight per invocation per step; auto: 2, and 3 from 2^26 floats where the SM count is known"));
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
        add(ConfigKey.choice("exposure.mode", "auto", java.util.List.of("auto", "manual", "physical"),
                "auto (metered), manual (exposure.manualEV) or physical (aperture, shutter, ISO)"));
        add(ConfigKey.real("exposure.manualEV", "0", -160, 160, "manual mode: the exposure in EV (the image is scaled by 2^-EV)"));
        add(ConfigKey.real("exposure.aperture", "8", 0.5, 256, "physical mode: f-number N"));
        add(ConfigKey.real("exposure.shutterSeconds", "0.01", 1e-6, 3600, "physical mode: shutter time t in seconds"));
        add(ConfigKey.real("exposure.iso", "100", 1, 1e6, "physical mode: ISO; EV100 = log2(N^2 / t * 100 / ISO)"));
        add(ConfigKey.real("exposure.clampMinEV", "-160", -160, 160, "auto mode: lowest target EV"));
        add(ConfigKey.real("exposure.clampMaxEV", "160", -160, 160, "auto mode: highest target EV"));
        add(ConfigKey.string("exposure.curve", "none",
                "auto mode: compensation over scene EV, sceneEV:stops points in ascending order (e.g. -4:-2, 2:0), or none"));
        add(ConfigKey.real("exposure.transitionEV", "1.5", 1e-3, 20, "adaptation is exponential within this many EV of the target"));
        add(ConfigKey.real("exposure.deadBandEV", "0.1", 0, 10, "auto mode: adaptation starts when the target leaves this band (0: off)"));
        add(ConfigKey.real("exposure.histogramFilterSeconds", "0.5", 0, 60,
                "auto mode: time constant of the histogram's moving average (0: off)"));
        add(ConfigKey.real("hud.scale", "0.02", 0.005, 0.25, "HUD text line height as a fraction of the output height"));
        add(ConfigKey.integer("hud.textRefreshMs", "100", 0, 10_000, false,
                "the demo rebuilds its HUD text every this many ms of its frame clock (0: every frame); a counter read by eye changes a few times a second"));
        add(ConfigKey.integer("readback.slots", "3", 2, 16, false, "readback ring slots; must exceed frames.inFlight"));
        add(ConfigKey.choice("readback.mode", "fixed", java.util.List.of("fixed", "sync", "freshest"),
                "fixed: samples exactly readback.slots frames late, never waiting; sync: read within the frame, waiting for the GPU (a baseline);"
                        + " freshest: the newest completed sample at each frame's beginning, never waiting"));
        add(ConfigKey.integer("readback.maxAgeFrames", "0", 0, 1024, false,
                "samples later than this many frames are flagged stale and counted; 0 = readback.slots"));
        add(ConfigKey.choice("async.mode", "off", java.util.List.of("off", "on", "auto"),
                "compute passes that may overlap run on an async compute queue: off, on, or auto (measured per topology, the faster kept)"));
        add(ConfigKey.integer("graph.passTimingInterval", "8", 1, 1024, false,
                "every Nth frame times each pass (timestamps around it); the others time only the frame's span (first pass start to last pass end)"));
        add(ConfigKey.bool("debug.asyncOneQueue", "false",
                "test hook: with no second queue, still split frames into per-lane batches with semaphores, all on the one queue"));
        add(ConfigKey.string("cache.dir", "auto", "where the pipeline cache (and live-compiled SPIR-V) is kept; auto = ~/.cache/tally"));
        add(ConfigKey.bool("shaders.live", "false",
                "true: compile GLSL with shaderc when a pipeline is made (from shaders.dir, else the jar's), so edits can be"
                        + " reloaded; needs lwjgl-shaderc and its natives. false: the SPIR-V built into the jar, no compiler"));
        add(ConfigKey.string("shaders.dir", "auto",
                "with shaders.live: the directory whose GLSL is compiled and watched (a host's own kernels, or edits of Tally's; names"
                        + " not found there come from the jar); auto = TALLY_HOME's shaders/ when TALLY_HOME is set, else none"));
        add(ConfigKey.integer("debug.forceStorageAlignment", "0", 0, 4096, false,
                "test hook: storage-buffer binding offsets are aligned to at least this (a power of two), as on devices that demand it; 0 = the device's"));
        add(ConfigKey.string("debug.injectFault", "none",
                "test hook: none, device-lost@N (the N-th queue submission fails with VK_ERROR_DEVICE_LOST) or oom@N"
                        + " (the N-th buffer allocation fails with VK_ERROR_OUT_OF_DEVICE_MEMORY); checked when the runtime opens"));
        add(ConfigKey.bool("debug.skipBarriers", "false",
                "test hook: record frame graphs without their barriers, so that synchronization validation shows they are needed"));
    }

    private void add(ConfigKey k) {
        keys.put(k.name(), k);
    }

    /** {@return Tally's keys with their defaults, ranges and documentation} */
    public static ConfigSchema standard() {
        return new ConfigSchema();
    }

    /**
     * {@return the key, or null when Tally has no such key}
     *
     * @param name a dotted key name
     */
    public ConfigKey get(String name) {
        return keys.get(name);
    }

    /** {@return every key by name (unmodifiable, in no particular order; {@link #names()} keeps the schema's order)} */
    public Map<String, ConfigKey> keys() {
        return Map.copyOf(keys);
    }

    /** {@return every key's name, in the schema's order (grouped by subsystem), for messages and listings} */
    public List<String> names() {
        return List.copyOf(keys.keySet());
    }
}

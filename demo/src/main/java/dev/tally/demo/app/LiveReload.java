package dev.tally.demo.app;

import dev.tally.config.Config;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.Device;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * In a window: rebuilds pipelines when a file under shaders/ changes and applies edits to the
 * configuration file. A compile error or a bad edit keeps what ran before and is shown on the HUD.
 */
final class LiveReload implements AutoCloseable {
    /** Something that rebuilds its pipelines from the current sources (throws, keeping the old ones, on a compile error). */
    interface Reloadable {
        void reload();
    }

    private final Device gpu;
    private final PrintStream log;
    private final ShaderWatcher shaders;
    private final List<Reloadable> targets;
    private ShaderWatcher configWatcher;
    private Path configFile;
    private List<String> configOverrides;
    private String error;
    private long reloads;

    LiveReload(Device gpu, Path shaderDirectory, List<Reloadable> targets, PrintStream log) {
        this.gpu = gpu;
        this.log = log;
        this.targets = List.copyOf(targets);
        this.shaders = ShaderWatcher.watch(shaderDirectory);
    }

    void watchConfig(Path file, List<String> overrides) {
        configFile = file;
        configOverrides = List.copyOf(overrides);
        configWatcher = ShaderWatcher.watch(file.toAbsolutePath().getParent());
    }

    /** Between frames: reload what changed. */
    void poll(AutoExposure exposure) {
        if (shaders != null && shaders.changed()) {
            try {
                gpu.waitIdle();
                targets.forEach(Reloadable::reload);
                error = null;
                reloads++;
                log.println("shaders reloaded");
            } catch (ShaderCompileException e) {
                error = e.getMessage().lines().findFirst().orElse("compile error");
                log.println("shader error (previous pipelines kept): " + e.getMessage());
            }
        }
        if (configWatcher != null && configWatcher.changed()) {
            try {
                Config next = Config.load(configFile, configOverrides);
                exposure.settings(ExposureSettings.fromConfig(next).withMetering(exposure.settings().metering()));
                error = null;
                log.println("configuration reloaded from " + configFile);
            } catch (RuntimeException e) {
                error = "config: " + e.getMessage();
                log.println("configuration not applied (previous settings kept): " + e.getMessage());
            }
        }
    }

    /** The last reload error, for the HUD, or null. */
    String error() {
        return error;
    }

    long reloads() {
        return reloads;
    }

    @Override
    public void close() {
        if (shaders != null) {
            shaders.close();
        }
        if (configWatcher != null) {
            configWatcher.close();
        }
    }
}

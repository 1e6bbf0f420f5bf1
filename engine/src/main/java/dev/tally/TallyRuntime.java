package dev.tally;

import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import dev.tally.reduce.ReduceSettings;
import dev.tally.reduce.Reducer;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.shader.ShaderSources;
import dev.tally.vk.ContextOptions;
import dev.tally.vk.DeviceSelection;
import dev.tally.vk.FaultPlan;
import dev.tally.vk.VulkanContext;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything a Tally user needs, built from one {@link Config}: the Vulkan context, the shader
 * compiler with its SPIR-V cache, the pipeline cache and the reduction kernels. Closing releases all
 * of it, in reverse order, after the GPU is idle.
 */
public final class TallyRuntime implements AutoCloseable {
    private final Config config;
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache pipelineCache;
    private final Reducer reducer;
    private boolean closed;

    private TallyRuntime(Config config, VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache, Reducer reducer) {
        this.config = config;
        this.ctx = ctx;
        this.compiler = compiler;
        this.pipelineCache = cache;
        this.reducer = reducer;
    }

    /** Headless runtime; {@code surfaceExtensions} non-empty enables presentation for a window. */
    public static TallyRuntime open(Config config, List<String> surfaceExtensions) {
        checkCombinations(config);
        Path cacheDir = cacheDir(config);
        ContextOptions options = ContextOptions.headless()
                .withValidation(config.bool("validation.enabled"))
                .withDevice(deviceSelection(config))
                .withFramesInFlight(config.integer("frames.inFlight"))
                .withFaults(faultPlan(config));
        if (!surfaceExtensions.isEmpty()) {
            options = options.withPresentation(surfaceExtensions);
        }
        VulkanContext ctx = VulkanContext.create(options);
        ShaderCompiler compiler = null;
        PipelineCache cache = null;
        try {
            compiler = new ShaderCompiler(ShaderSources.preferDirectory(shaderDirectory()), cacheDir.resolve("spirv"));
            cache = new PipelineCache(ctx, cacheDir.resolve("pipelines-" + Integer.toHexString(ctx.info().name().hashCode()) + ".bin"));
            ReduceSettings settings;
            try {
                settings = ReduceSettings.resolve(config, ctx.info());
            } catch (IllegalArgumentException e) {
                // Limits only the chosen device knows (e.g. maxComputeWorkGroupInvocations).
                throw new ConfigException("configuration does not suit device '" + ctx.info().name() + "': " + e.getMessage());
            }
            Reducer reducer = new Reducer(ctx, compiler, cache, settings);
            return new TallyRuntime(config, ctx, compiler, cache, reducer);
        } catch (RuntimeException e) {
            if (cache != null) {
                cache.close();
            }
            if (compiler != null) {
                compiler.close();
            }
            ctx.close();
            throw e;
        }
    }

    /**
     * Rules that involve more than one key, or more than a key's type and range, checked before anything
     * is created. (Each key's own type and range were checked when the configuration was loaded.)
     */
    static void checkCombinations(Config config) {
        int inFlight = config.integer("frames.inFlight");
        int slots = config.integer("readback.slots");
        if (slots <= inFlight) {
            throw new ConfigException("key 'readback.slots': " + slots + " with frames.inFlight = " + inFlight
                    + "; expected more readback slots than frames in flight (at least " + (inFlight + 1) + ")");
        }
        if (!config.isAuto("reduce.workgroupSize") && Integer.bitCount(config.integer("reduce.workgroupSize")) != 1) {
            throw new ConfigException("key 'reduce.workgroupSize': " + config.integer("reduce.workgroupSize")
                    + " is not a power of two; expected a power of two in 32..1024 or auto");
        }
    }

    static FaultPlan faultPlan(Config config) {
        try {
            return FaultPlan.parse(config.string("debug.injectFault"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("key 'debug.injectFault': " + e.getMessage());
        }
    }

    static DeviceSelection deviceSelection(Config config) {
        DeviceSelection selection = DeviceSelection.resolve(config.string("device.select"));
        try {
            selection.index();
        } catch (NumberFormatException e) {
            throw new ConfigException("key 'device.select' (or --device, or " + DeviceSelection.ENV + "): '" + selection.spec()
                    + "' is not a device index; expected auto, an index from ./tally info, or part of a device name");
        }
        return selection;
    }

    /** The repository's shaders/ when running from a checkout (TALLY_HOME set by ./tally), for hot reload. */
    static Path shaderDirectory() {
        String home = System.getenv("TALLY_HOME");
        return home == null ? null : Path.of(home, "shaders");
    }

    static Path cacheDir(Config config) {
        String dir = config.string("cache.dir");
        if (dir.isBlank()) {
            // Path.of("") would be the working directory: never fill it with cache files by accident.
            throw new ConfigException("key 'cache.dir': empty; expected a directory or auto");
        }
        if (!dir.equals("auto")) {
            try {
                return Path.of(dir);
            } catch (InvalidPathException e) {
                throw new ConfigException("key 'cache.dir': \"" + dir + "\" is not a usable path (" + e.getReason() + "); expected a directory or auto");
            }
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "tally") : Path.of(System.getProperty("user.home"), ".cache", "tally");
    }

    public Config config() { return config; }
    public VulkanContext context() { return ctx; }
    public ShaderCompiler compiler() { return compiler; }
    public PipelineCache pipelineCache() { return pipelineCache; }
    public Reducer reducer() { return reducer; }

    /**
     * Releases everything, also after a failure (a lost device, say): each step runs even when an earlier
     * one threw, and the first failure is rethrown at the end.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        new dev.tally.vk.CloseSteps().run(ctx::waitIdle).run(reducer::close).run(pipelineCache::close).run(compiler::close)
                .run(ctx::close).finish();
    }

}

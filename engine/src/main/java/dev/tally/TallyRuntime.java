package dev.tally;

import dev.tally.config.Config;
import dev.tally.reduce.ReduceSettings;
import dev.tally.reduce.Reducer;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.shader.ShaderSources;
import dev.tally.vk.ContextOptions;
import dev.tally.vk.DeviceSelection;
import dev.tally.vk.VulkanContext;

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

    private TallyRuntime(Config config, VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache, Reducer reducer) {
        this.config = config;
        this.ctx = ctx;
        this.compiler = compiler;
        this.pipelineCache = cache;
        this.reducer = reducer;
    }

    /** Headless runtime; {@code surfaceExtensions} non-empty enables presentation for a window. */
    public static TallyRuntime open(Config config, List<String> surfaceExtensions) {
        ContextOptions options = ContextOptions.headless()
                .withValidation(config.bool("validation.enabled"))
                .withDevice(DeviceSelection.resolve(config.string("device.select")))
                .withFramesInFlight(config.integer("frames.inFlight"));
        if (!surfaceExtensions.isEmpty()) {
            options = options.withPresentation(surfaceExtensions);
        }
        VulkanContext ctx = VulkanContext.create(options);
        ShaderCompiler compiler = null;
        PipelineCache cache = null;
        try {
            Path cacheDir = cacheDir(config);
            compiler = new ShaderCompiler(ShaderSources.preferDirectory(shaderDirectory()), cacheDir.resolve("spirv"));
            cache = new PipelineCache(ctx, cacheDir.resolve("pipelines-" + Integer.toHexString(ctx.info().name().hashCode()) + ".bin"));
            Reducer reducer = new Reducer(ctx, compiler, cache, ReduceSettings.resolve(config, ctx.info()));
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

    /** The repository's shaders/ when running from a checkout (TALLY_HOME set by ./tally), for hot reload. */
    static Path shaderDirectory() {
        String home = System.getenv("TALLY_HOME");
        return home == null ? null : Path.of(home, "shaders");
    }

    static Path cacheDir(Config config) {
        String dir = config.string("cache.dir");
        if (!dir.equals("auto")) {
            return Path.of(dir);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "tally") : Path.of(System.getProperty("user.home"), ".cache", "tally");
    }

    public Config config() { return config; }
    public VulkanContext context() { return ctx; }
    public ShaderCompiler compiler() { return compiler; }
    public PipelineCache pipelineCache() { return pipelineCache; }
    public Reducer reducer() { return reducer; }

    @Override
    public void close() {
        ctx.waitIdle();
        reducer.close();
        pipelineCache.close();
        compiler.close();
        ctx.close();
    }
}

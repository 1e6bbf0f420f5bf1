package dev.tally.internal.engine;

import dev.tally.Diagnostics;
import dev.tally.graph.AsyncLane;
import dev.tally.internal.shader.HostKernel;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.vk.Device;

import dev.tally.graph.PassStats;

import dev.tally.FrameBatch;

import dev.tally.hud.ExposurePlot;
import dev.tally.internal.hud.ExposurePlotNode;

import dev.tally.internal.readback.ReadbackRingNode;

import dev.tally.internal.reduce.NormalizePass;

import dev.tally.internal.reduce.ReducePasses;

import dev.tally.internal.hud.HudOverlayNode;

import dev.tally.internal.exposure.TonemapperNode;

import dev.tally.internal.exposure.AutoExposureNode;

import dev.tally.Tally;
import dev.tally.FrameCommands;
import dev.tally.LaneCommands;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;

import dev.tally.internal.graph.FrameTicket;
import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.exposure.Tonemapper;
import dev.tally.graph.AsyncMode;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.hud.HudOverlay;
import dev.tally.readback.ReadbackRing;
import dev.tally.reduce.NormalizeNode;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.StatsNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.reduce.ReduceSettings;
import dev.tally.internal.reduce.Reducer;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.shader.ShaderSources;
import dev.tally.internal.vk.CloseSteps;
import dev.tally.internal.vk.ContextOptions;
import dev.tally.internal.vk.DeviceSelection;
import dev.tally.vk.HostFeatures;
import dev.tally.vk.Requirements;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueue;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.Lock;

/**
 * Tally's one entry point. {@link #open} creates its own Vulkan device; {@link #wrap} runs on a
 * renderer's instance, device, queue and VMA allocator. Everything else (shader compiler and caches,
 * the reducer, the frame graph runtime, nodes and readback rings) is made or reached from here.
 * <p>
 * Each frame: {@link #beginFrame()} gives a {@link Frame} (its number, its graph, the readback
 * deliveries that are due); passes are declared on {@link Frame#graph()}; {@link Frame#record}
 * records them into the caller's command buffer; {@link Frame#signal} adds Tally's timeline signal to
 * the caller's own {@code VkSubmitInfo2} (or {@link Frame#submit} lets Tally submit). The frame's
 * {@link FrameTicket} is the only frame counter: rings, histories and timings follow it. Frame numbers and
 * timeline values only grow; an abandoned frame's are never reused.
 * <p>
 * Threads: frames are begun, recorded and submitted from one thread at a time, the thread that began
 * the frame. Another thread may begin the next frame once the previous one is submitted or abandoned.
 * A frame operation from another thread than the frame's, or a {@link #beginFrame()} while another
 * thread's frame is open, throws IllegalStateException saying so.
 */
public final class Engine implements Tally {
    /**
     * The implementation behind a {@link Tally}: internal code (tests, tools) reaches the device, compiler,
     * caches and graph runtime through it.
     */
    public static Engine of(Tally tally) {
        return (Engine) tally;
    }

    private final Config config;
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache pipelineCache;
    private final Reducer reducer;
    /** The readback rings' compute copies, shared by every ring (its pipelines are built on first use). */
    private final dev.tally.internal.readback.ReadbackGather gather;
    private final GraphRuntime graphs;
    /** Kernels and command pools handed out and not yet closed: named and closed at close. */
    private final OpenOwners owners = new OpenOwners();
    /** Frames in flight, read once: tickets and the command pools of FrameCommands and LaneCommands follow it. */
    private final int framesInFlight;
    private long nextFrame;
    private EngineFrame current;
    /**
     * The frame objects, handed out in turn: frame n's is taken again at frame n + frames.inFlight + 2, when frame n was
     * submitted or abandoned long before (beginFrame refuses an unfinished previous frame), so that a frame allocates nothing.
     */
    private final EngineFrame[] frames;
    /** The batches of the frame recorded last (a frame recorded in batches allocates nothing): list, read-only view, objects. */
    private final List<FrameBatch> batchList = new java.util.ArrayList<>(2);
    private final List<FrameBatch> batchView = java.util.Collections.unmodifiableList(batchList);
    private final List<LaneBatch> batchPool = new java.util.ArrayList<>(2);
    private volatile boolean closed;
    /** What the device was created with: the graphics paths are checked against it when first asked for. */
    private final HostFeatures enabled;
    /** The frames-in-flight promise, polled at each beginFrame (never a wait). */
    private final InFlightCheck inFlight;
    private final Device device;
    private final Diagnostics diagnostics;
    private final AsyncLane asyncLane;

    private Engine(Config config, VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, Reducer reducer, HostFeatures enabled) {
        this.config = config;
        this.enabled = enabled;
        this.ctx = ctx;
        this.compiler = compiler;
        this.pipelineCache = cache;
        this.reducer = reducer;
        this.gather = new dev.tally.internal.readback.ReadbackGather(ctx, compiler, cache);
        this.framesInFlight = ctx.options().framesInFlight();
        this.inFlight = new InFlightCheck(framesInFlight);
        this.frames = new EngineFrame[framesInFlight + 2];
        this.graphs = new GraphRuntime(ctx, config.bool("debug.skipBarriers"));
        graphs.configureAsync(AsyncMode.valueOf(config.string("async.mode").toUpperCase(Locale.ROOT)), config.bool("debug.asyncOneQueue"));
        graphs.passTimingInterval(config.integer("graph.passTimingInterval"));
        this.device = new EngineDevice(ctx);
        this.diagnostics = new EngineDiagnostics(ctx);
        this.asyncLane = new EngineAsyncLane(ctx, graphs);
    }

    /** Tally on a device of its own, headless. */
    public static Engine open(Config config) {
        return open(config, List.of());
    }

    /** Tally on a device of its own; {@code surfaceExtensions} non-empty enables presentation for a window. */
    public static Engine open(Config config, List<String> surfaceExtensions) {
        checkCombinations(config);
        ContextOptions options = contextOptions(config);
        if (!surfaceExtensions.isEmpty()) {
            options = options.withPresentation(surfaceExtensions);
        }
        VulkanContext ctx = VulkanContext.create(options);
        return assemble(config, ctx, ctx.enabledFeatures());
    }

    /**
     * Tally on a renderer's own Vulkan objects, which it never destroys. Validation messages go to the
     * renderer's messenger. Frames in flight and the other settings come from {@code config}.
     */
    public static Engine wrap(Config config, Tally.Host host) {
        checkCombinations(config);
        if (host.enabled() == null) {
            throw new IllegalArgumentException("Tally.wrap: Host.enabled is null; pass HostFeatures.of(createInfo) with the"
                    + " VkDeviceCreateInfo the device was made with (Vulkan cannot be asked which features a device enabled)");
        }
        Requirements.get().check("Tally.wrap", host.device(), host.enabled(), EnumSet.of(Requirements.Part.GRAPH, Requirements.Part.AUTO_EXPOSURE,
                Requirements.Part.READBACK));
        Requirements.get().checkQueue("Tally.wrap", host.physicalDevice(), host.queueFamily());
        VulkanContext ctx = VulkanContext.wrap(contextOptions(config), host.instance(), host.physicalDevice(), host.device(),
                host.queueFamily(), host.queue(), host.vmaAllocator(), host.debugUtils(), host.queueLock(), host.enabled());
        return assemble(config, ctx, host.enabled());
    }

    private static ContextOptions contextOptions(Config config) {
        ContextOptions options = ContextOptions.headless()
                .withValidation(config.bool("validation.enabled"))
                .withDevice(deviceSelection(config))
                .withFramesInFlight(config.integer("frames.inFlight"));
        try {
            return options.withFaults(config.string("debug.injectFault"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("key 'debug.injectFault': " + e.getMessage());
        }
    }

    /** Builds the rest on a context; on any failure releases what it made, the context included. */
    private static Engine assemble(Config config, VulkanContext ctx, HostFeatures enabled) {
        ShaderLibrary compiler = null;
        PipelineCache cache = null;
        Reducer reducer = null;
        try {
            Path cacheDir = cacheDir(config);
            compiler = config.bool("shaders.live") ? ShaderLibrary.live(liveSources(config), cacheDir.resolve("spirv"))
                    : ShaderLibrary.prebuilt();
            cache = new PipelineCache(ctx, cacheDir.resolve("pipelines-" + Integer.toHexString(ctx.info().name().hashCode()) + ".bin"));
            ReduceSettings settings;
            try {
                settings = ReduceSettings.resolve(config, ctx.info());
            } catch (IllegalArgumentException e) {
                // Limits only the chosen device knows (e.g. maxComputeWorkGroupInvocations).
                throw new ConfigException("configuration does not suit device '" + ctx.info().name() + "': " + e.getMessage());
            }
            reducer = new Reducer(ctx, compiler, cache, settings);
            return new Engine(config, ctx, compiler, cache, reducer, enabled);
        } catch (RuntimeException e) {
            CloseSteps steps = new CloseSteps();
            if (reducer != null) {
                steps.run(reducer::close);
            }
            if (cache != null) {
                steps.run(cache::close);
            }
            if (compiler != null) {
                steps.run(compiler::close);
            }
            steps.run(ctx::close);
            try {
                steps.finish();
            } catch (RuntimeException second) {
                e.addSuppressed(second);
            }
            throw e;
        }
    }

    /**
     * Begins the next frame: retires what the GPU is done with, delivers readback samples that are due
     * and returns the frame with its graph. Never waits for the GPU. The previous frame must have been
     * handed to a submission ({@link Frame#signal} or {@link Frame#submit}) or abandoned, and frame
     * {@code n - frames.inFlight - 1} must have finished on the GPU (abandoned frames not counted; checked by a
     * poll; a host that runs further ahead is told so in one line). The calling thread owns the frame until then.
     */
    @Override
    public synchronized EngineFrame beginFrame() {
        requireOpen();
        if (current != null) {
            current.requireFinished();
        }
        inFlight.check(nextFrame, ctx.reached(inFlight.due()));   // a poll only when no earlier one saw it finish; never waits
        ctx.retire();
        long value = ctx.submissions().openFrame();
        long number = nextFrame++;
        try {
            GraphDeclaration graph = graphs.begin(number, value);
            int k = (int) (number % frames.length);
            if (frames[k] == null) {
                frames[k] = new EngineFrame(this);
            }
            current = frames[k].begin(number, value, framesInFlight, Thread.currentThread(), graph);
        } catch (RuntimeException e) {
            ctx.submissions().frameAbandoned(value);   // the frame never existed: its value is signalled empty
            throw e;
        }
        inFlight.begun(number, value);
        return current;
    }

    /** The frame will never carry work: the graph drops it and its timeline value is signalled by an empty submission. */
    void abandoned(EngineFrame f) {
        try {
            graphs.abandon(f.graph());
        } finally {
            ctx.submissions().frameAbandoned(f.timelineValue());
            inFlight.abandoned();
        }
    }

    /** An auto-exposure whose passes and resources are named under {@code scope}, with the configured settings. */
    public AutoExposure autoExposure(String scope) {
        return autoExposure(scope, ExposureSettings.fromConfig(config));
    }

    /** An auto-exposure whose passes and resources are named under {@code scope}. */
    public AutoExposure autoExposure(String scope, ExposureSettings settings) {
        requireOpen();
        return new AutoExposureNode(graphs, compiler, pipelineCache, reducer, scope, settings);
    }

    /** A reduction node for up to {@code maxCount} floats; {@code name} labels its passes (e.g. "hud/count"). */
    public ReduceNode reduceNode(String name, ReduceOp op, long maxCount) {
        requireOpen();
        if (maxCount < 1) {
            throw new IllegalArgumentException("reduceNode '" + name + "': maxCount " + maxCount + "; a node reduces at least 1 float");
        }
        if (op == null) {
            throw new IllegalArgumentException("reduceNode '" + name + "': op is null; pass a ReduceOp");
        }
        return new ReducePasses(graphs, reducer, name, op, maxCount);
    }

    @Override
    public StatsNode statsNode(String name, long maxCount) {
        requireOpen();
        if (maxCount < 1) {
            throw new IllegalArgumentException("statsNode '" + name + "': maxCount " + maxCount + "; a node reads at least 1 float");
        }
        return ReducePasses.stats(graphs, reducer, name, maxCount);
    }

    /** Divides a buffer by a total that stays on the GPU. */
    public NormalizeNode normalizeNode() {
        requireOpen();
        return new NormalizePass(ctx, compiler, pipelineCache);
    }

    /** A readback ring of {@code readback.slots} slots of {@code capacityBytes}, in the configured {@code readback.mode}. */
    public ReadbackRing readback(String name, long capacityBytes) {
        return readback(name, capacityBytes, ReadbackRing.Mode.valueOf(config.string("readback.mode").toUpperCase(Locale.ROOT)));
    }

    /**
     * A readback ring of {@code readback.slots} slots of {@code capacityBytes}, delivering in {@code mode};
     * samples older than {@code readback.maxAgeFrames} (0: the slot count) are flagged stale.
     */
    public ReadbackRing readback(String name, long capacityBytes, ReadbackRing.Mode mode) {
        requireOpen();
        int slots = config.integer("readback.slots");
        int maxAge = config.integer("readback.maxAgeFrames");
        return new ReadbackRingNode(graphs, name, slots, capacityBytes, mode, maxAge == 0 ? slots : maxAge, gather);
    }

    /** The tonemap pass (HDR x exposure, to a display format). */
    public Tonemapper tonemapper() {
        requireOpen();
        Requirements.get().check("Tally.tonemapper", ctx.device(), enabled, EnumSet.of(Requirements.Part.GRAPHICS));
        return new TonemapperNode(ctx, compiler, pipelineCache);
    }

    /** The HUD overlay pass (text, the histogram, the exposure plot) with text at {@code hud.scale} of the output height. */
    public HudOverlay hud() {
        requireOpen();
        Requirements.get().check("Tally.hud", ctx.device(), enabled, EnumSet.of(Requirements.Part.GRAPHICS));
        return new HudOverlayNode(ctx, compiler, pipelineCache, config.real("hud.scale"));
    }

    List<FrameBatch> batchList() {
        return batchList;
    }

    List<FrameBatch> batchView() {
        return batchView;
    }

    LaneBatch laneBatch(int i) {
        while (batchPool.size() <= i) {
            batchPool.add(new LaneBatch());
        }
        return batchPool.get(i);
    }

    @Override
    public PassStats passStats() {
        return graphs.stats();
    }

    @Override
    public ComputeKernel computeKernel(String shader, Map<String, String> defines, List<BindingType> bindings, int pushBytes) {
        requireOpen();
        if (defines == null || bindings == null) {
            throw new IllegalArgumentException("computeKernel " + shader + ": " + (defines == null ? "defines" : "bindings")
                    + " is null; pass Map.of() or List.of() for none");
        }
        return owners.add("computeKernel '" + shader + "'", new HostKernel(ctx, compiler, pipelineCache, shader, defines, bindings, pushBytes, owners::closed));
    }

    @Override
    public void reloadShaders() {
        requireOpen();
        reducer.reload();
    }

    @Override
    public Path liveShaderDirectory() {
        return compiler.liveDirectory();
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    @Override
    public AsyncLane asyncLane() {
        return asyncLane;
    }

    @Override
    public String lastGraphDot() {
        return graphs.toDot();
    }

    @Override
    public ExposurePlot exposurePlot() {
        requireOpen();
        return new ExposurePlotNode(ctx, compiler, pipelineCache);
    }

    @Override
    public FrameCommands frameCommands() {
        requireOpen();
        return owners.add("frameCommands", new EngineFrameCommands(this));
    }

    @Override
    public LaneCommands laneCommands() {
        requireOpen();
        return owners.add("laneCommands", new EngineLaneCommands(this));
    }

    @Override
    public GpuBuffer createBuffer(String name, long size, int usage, MemoryKind kind) {
        requireOpen();
        return new TrackedBuffer(ctx, name, size, usage, kind);
    }

    @Override
    public GpuBuffer wrapBuffer(String name, long buffer, long size) {
        requireOpen();
        return TrackedBuffer.wrap(ctx, name, buffer, size);
    }

    @Override
    public GpuImage createImage(String name, int width, int height, int format, int usage) {
        requireOpen();
        return TrackedImage.create(ctx, name, width, height, format, usage);
    }

    @Override
    public GpuImage wrapImage(String name, long image, int width, int height, int format, int usage) {
        requireOpen();
        return TrackedImage.wrap(ctx, name, image, width, height, format, usage);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("Tally used after Tally.close()");
        }
    }

    /**
     * Rules that involve more than one key, or more than a key's type and range, checked before anything
     * is created. (Each key's own type and range were checked when the configuration was loaded.)
     */
    static void checkCombinations(Config config) {
        dev.tally.exposure.ExposureSettings.fromConfig(config);   // errors between exposure keys, before the device opens
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

    /** Where live shaders are compiled from: {@code shaders.dir}, or with auto the checkout's shaders/ when there is one, else the jar's GLSL. */
    static ShaderSources liveSources(Config config) {
        String dir = config.string("shaders.dir");
        if (dir.equals("auto")) {
            return ShaderSources.preferDirectory(shaderDirectory());
        }
        Path path;
        try {
            path = Path.of(dir);
        } catch (InvalidPathException e) {
            throw new ConfigException("key 'shaders.dir': '" + dir + "' is not a usable directory name (" + e.getReason() + ")");
        }
        if (!java.nio.file.Files.isDirectory(path)) {
            throw new ConfigException("key 'shaders.dir': " + path.toAbsolutePath() + " is not a directory; give the directory holding your .comp files, or auto");
        }
        return ShaderSources.directory(path);
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
    public ShaderLibrary compiler() { return compiler; }
    public PipelineCache pipelineCache() { return pipelineCache; }
    public Reducer reducer() { return reducer; }
    /** The frame graph runtime: compiled plans, transient memory, histories, per-pass GPU timings. */
    public GraphRuntime graphs() { return graphs; }
    /** Every CPU wait on the GPU, by kind and cause. */
    public Waits waits() { return ctx.waits(); }
    /** The frame begun last, or null before the first. */
    public EngineFrame currentFrame() { return current; }
    /** Frames in flight ({@code frames.inFlight}): the one size of every per-frame-in-flight ring. */
    public int framesInFlight() { return framesInFlight; }

    /** A kernel or command pool set was closed by its holder. */
    void ownerClosed(AutoCloseable owner) { owners.closed(owner); }

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
        CloseSteps steps = new CloseSteps();
        if (current != null && current.isOpen()) {
            steps.run(current::abandonAtClose);   // begun but never submitted: nothing of it reached the GPU
        }
        steps.run(ctx::waitIdle).run(() -> {
            try {
                owners.closeRemaining(ctx);
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        }).run(graphs::close).run(reducer::close).run(gather::close).run(pipelineCache::close).run(compiler::close)
                .run(ctx::close).finish();
    }

}

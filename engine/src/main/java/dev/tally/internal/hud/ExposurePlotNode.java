package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.hud.HudOverlay;

import dev.tally.graph.FrameGraph;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.PassKind;
import dev.tally.internal.graph.RecordedRequest;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The history behind the HUD's exposure plot: a small ring of {time, applied EV, target EV} kept on
 * the GPU and appended by a one-invocation compute pass each frame (shaders/hud_plot.comp), so the
 * plot costs no readback. {@link HudOverlay} draws it as lines.
 */
public final class ExposurePlotNode implements ExposurePlot {
    /** Entries in the ring: with {@link #SPAN_SECONDS} / 512 between points it holds twice the window. */
    public static final int CAPACITY = 1024;
    /** Seconds the plot shows. */
    public static final float SPAN_SECONDS = 10f;
    private static final float INTERVAL = SPAN_SECONDS / 512;
    private static final long HEADER_BYTES = 16;
    static final long BYTES = HEADER_BYTES + 16L * CAPACITY;
    private static final int PUSH_BYTES = 16;

    /**
     * This frame's plot: the ring after the append, and the newest time (the right edge). One object per plot, rewritten
     * by each frame's {@link #add} (pass {@code hud.plot} is declared once a frame, and only the frame declared last can be
     * recorded): read it while declaring and recording that frame, not later.
     */
    static final class PlotView implements View {
        private BufferHandle ring;
        private float now;

        PlotView set(BufferHandle ring, float now) {
            this.ring = ring;
            this.now = now;
            return this;
        }

        public BufferHandle ring() {
            return ring;
        }

        public float now() {
            return now;
        }
    }

    private final PlotView view = new PlotView();

    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final TrackedBuffer ring;
    private ComputeKernel append;
    /** Emptying the plot: pending from the start (its memory is never zeroed by the host) and after reset(), until recorded. */
    private final RecordedRequest emptying = new RecordedRequest(true);

    public ExposurePlotNode(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        try (dev.tally.internal.guard.ConstructionGuard guard = new dev.tally.internal.guard.ConstructionGuard()) {
            // Device memory, never zeroed by the host: the first append passes reset and empties it on the GPU.
            ring = guard.add(new TrackedBuffer(ctx, "hud.plot", BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE));
            append = guard.add(build());
            guard.done();
        }
    }

    /**
     * The exposure record offsets the shaders read, by name, from the record's layout, and the plot ring's capacity as a
     * constant (the HUD's index arithmetic on the ring then compiles to masks and multiplies, not integer divisions).
     */
    public static Map<String, String> recordDefines() {
        return Map.of("RECORD_EV", ExposureShaderLayout.EV + "u", "RECORD_TARGET_EV", ExposureShaderLayout.TARGET_EV + "u",
                "RECORD_VALID", ExposureShaderLayout.VALID + "u", "RECORD_LOW_EV", ExposureShaderLayout.LOW_EV + "u",
                "RECORD_HIGH_EV", ExposureShaderLayout.HIGH_EV + "u", "PLOT_CAPACITY", CAPACITY + "u");
    }

    private ComputeKernel build() {
        return new ComputeKernel(ctx, compiler, cache, "hud_plot.comp", recordDefines(), null, 2, PUSH_BYTES);
    }

    /** Rebuilds the pipeline from the current shader sources; on a compile error the old one stays. */
    public void reload() {
        ComputeKernel fresh = build();
        append.close();
        append = fresh;
    }

    /** Empties the plot at the next frame (a restarted clock). */
    public void reset() {
        emptying.ask();
    }

    /** Adds pass {@code hud.plot}: appends {@code exposure}'s applied and target EV at scene time {@code now}. */
    public View add(FrameGraph g, BufferHandle exposure, float now) {
        setupExposure = exposure;
        setupImported = g.importBuffer("hud.plot", ring, null);
        setupNow = now;
        setupTicket = emptying.ticket();
        setupKernel = append;
        Io io = g.addPass("hud.plot", PassKind.COMPUTE, setup, record);
        setupExposure = setupImported = null;
        setupKernel = null;
        return view.set(io.ring(), now);
    }

    /** The pass's handles and what its recording needs: one object, rewritten by each frame's setup (as {@link View} is). */
    private static final class Io {
        private BufferHandle exposure, ring;
        private float now;
        private long ticket;
        private ComputeKernel kernel;

        Io set(BufferHandle exposure, BufferHandle ring, float now, long ticket, ComputeKernel kernel) {
            this.exposure = exposure;
            this.ring = ring;
            this.now = now;
            this.ticket = ticket;
            this.kernel = kernel;
            return this;
        }

        BufferHandle exposure() { return exposure; }
        BufferHandle ring() { return ring; }
        float now() { return now; }
        long ticket() { return ticket; }
        ComputeKernel kernel() { return kernel; }
    }

    private final Io io = new Io();

    // The pass being declared, read by setup while addPass runs: no lambda captures per frame.
    private BufferHandle setupExposure, setupImported;
    private float setupNow;
    private long setupTicket;
    private ComputeKernel setupKernel;
    private final Bindings bindings = new Bindings(2);

    private final java.util.function.Function<dev.tally.graph.PassBuilder, Io> setup = b -> io.set(b.read(setupExposure, Access.COMPUTE_READ),
            b.write(setupImported, Access.COMPUTE_READ_WRITE), setupNow, setupTicket, setupKernel);

    private final java.util.function.BiConsumer<Io, dev.tally.graph.PassContext> record = (h, c) -> {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            long push = stack.nmalloc(4, PUSH_BYTES);
            MemoryUtil.memPutFloat(push, h.now());
            MemoryUtil.memPutFloat(push + 4, INTERVAL);
            MemoryUtil.memPutInt(push + 8, CAPACITY);
            MemoryUtil.memPutInt(push + 12, h.ticket() != 0 ? 1 : 0);
            h.kernel().dispatch(c.cmd(), bindings.clear().buffer(c.buffer(h.exposure()), 0, ExposureShaderLayout.EXPOSURE_BYTES)
                    .buffer(c.buffer(h.ring()), 0, BYTES), push, PUSH_BYTES, 1, 1);
        }
        emptying.recorded(h.ticket());
    };

    @Override
    public void close() {
        append.close();
        ring.close();
    }
}

package dev.tally.hud;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.graph.RecordedRequest;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The history behind the HUD's exposure plot: a small ring of {time, applied EV, target EV} kept on
 * the GPU and appended by a one-invocation compute pass each frame (shaders/hud_plot.comp), so the
 * plot costs no readback. {@link HudOverlay} draws it as lines. The append stays a pass of its own,
 * ahead of the HUD even where the HUD runs inside the tonemap's pass: the HUD's workgroups read the
 * ring's header and entries the append rewrites, and nothing within one dispatch orders one workgroup
 * after another.
 */
public final class ExposurePlot implements AutoCloseable {
    /** Entries in the ring: with {@link #SPAN_SECONDS} / 512 between points it holds twice the window. */
    public static final int CAPACITY = 1024;
    /** Seconds the plot shows. */
    public static final float SPAN_SECONDS = 10f;
    private static final float INTERVAL = SPAN_SECONDS / 512;
    private static final long HEADER_BYTES = 16;
    static final long BYTES = HEADER_BYTES + 16L * CAPACITY;
    private static final int PUSH_BYTES = 16;

    /** This frame's plot: the ring after the append, and the newest time (the right edge). */
    public record View(BufferHandle ring, float now) {
    }

    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private final GpuBuffer ring;
    private ComputeKernel append;
    /** Emptying the plot: pending from the start (its memory is never zeroed by the host) and after reset(), until recorded. */
    private final RecordedRequest emptying = new RecordedRequest(true);

    public ExposurePlot(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        try (dev.tally.vk.internal.ConstructionGuard guard = new dev.tally.vk.internal.ConstructionGuard()) {
            // Device memory, never zeroed by the host: the first append passes reset and empties it on the GPU.
            ring = guard.add(new GpuBuffer(ctx, "hud.plot", BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE));
            append = guard.add(build());
            guard.done();
        }
    }

    /** The exposure record offsets the shaders read, by name, from the record's layout. */
    static Map<String, String> recordDefines() {
        return Map.of("RECORD_EV", ExposureShaderLayout.EV + "u", "RECORD_TARGET_EV", ExposureShaderLayout.TARGET_EV + "u",
                "RECORD_VALID", ExposureShaderLayout.VALID + "u", "RECORD_LOW_EV", ExposureShaderLayout.LOW_EV + "u",
                "RECORD_HIGH_EV", ExposureShaderLayout.HIGH_EV + "u");
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
        long ticket = emptying.ticket();
        boolean reset = ticket != 0;
        ComputeKernel k = append;
        BufferHandle imported = g.importBuffer("hud.plot", ring, null);
        record Io(BufferHandle exposure, BufferHandle ring) {
        }
        Io io = g.addPass("hud.plot", PassKind.COMPUTE, b -> new Io(b.read(exposure, Access.COMPUTE_READ),
                b.write(imported, Access.COMPUTE_READ_WRITE)), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ByteBuffer push = stack.malloc(PUSH_BYTES).putFloat(0, now).putFloat(4, INTERVAL).putInt(8, CAPACITY).putInt(12, reset ? 1 : 0);
                k.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h.exposure()), 0, ExposureShaderLayout.EXPOSURE_BYTES),
                        DescriptorSets.Range.of(c.buffer(h.ring()), 0, BYTES)), push, 1, 1);
            }
            emptying.recorded(ticket);
        });
        return new View(io.ring(), now);
    }

    @Override
    public void close() {
        append.close();
        ring.close();
    }
}

package dev.tally.internal.reduce;

import dev.tally.reduce.NormalizeNode;

import dev.tally.graph.FrameGraph;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.PassKind;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.util.List;
import java.util.Map;

/**
 * Normalization as a graph pass: divides {@code count} floats by a total that a reduction
 * left on the GPU. The graph orders it after the reduction and inserts the barrier. The output holds
 * {@code count + 1} floats: the quotients, then 1.0 when the total was usable (finite, not zero) or
 * 0.0 when it was not (then every quotient is 0.0); normalize.comp states the rule.
 */
public final class NormalizePass implements NormalizeNode {
    /** The one normalize shader, shared with auto-exposure. */
    public static final String SHADER = "normalize.comp";
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private ComputeKernel kernel;

    public NormalizePass(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.kernel = build();
    }

    private ComputeKernel build() {
        return new ComputeKernel(ctx, compiler, cache, SHADER, Map.of(), null, 3, 4);
    }

    /** Hot reload, between frames: rebuilds from the current source; on a compile error the running pipeline stays. */
    public void reload() {
        ComputeKernel fresh = build();
        kernel.close();   // destruction deferred past the frames in flight
        kernel = fresh;
    }

    /** Adds pass {@code name}; returns the handle of the normalized copy ({@code count + 1} floats). */
    public BufferHandle add(FrameGraph g, String name, BufferHandle input, BufferHandle total, long count) {
        record Io(BufferHandle in, BufferHandle total, BufferHandle out) {
        }
        Io io = g.addPass(name, PassKind.COMPUTE, b -> new Io(b.read(input, Access.COMPUTE_READ), b.read(total, Access.COMPUTE_READ),
                        b.write(b.create(name + ".out", BufferDesc.of(Math.max(16, 4 * (count + 1)))), Access.COMPUTE_WRITE)),
                (io2, ctx) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        int groups = (int) Math.max(1, Math.min(1024, (count + 255) / 256));
                        kernel.dispatch(ctx.cmd(), List.of(DescriptorSets.Range.of(ctx.buffer(io2.in()), 0, Math.max(4, 4 * count)),
                                        DescriptorSets.Range.of(ctx.buffer(io2.total()), 0, 4),
                                        DescriptorSets.Range.of(ctx.buffer(io2.out()), 0, 4 * (count + 1))),
                                stack.malloc(4).putInt(0, (int) count), groups, 1);
                    }
                });
        return io.out();
    }

    @Override
    public void close() {
        ctx.requireOpen("NormalizeNode");
        kernel.close();
    }
}

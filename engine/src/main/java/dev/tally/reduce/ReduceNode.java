package dev.tally.reduce;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The reduction as a frame-graph node: given a buffer handle and a count, it adds its dispatches and
 * returns the handle of a one-float result that stays on the GPU. Large n: passes {@code NAME.partials}
 * and {@code NAME.fold}, with the barrier between them computed by the graph. Small n: one pass
 * {@code NAME}. Each node owns its scratch (partials and the one-pass ticket), so one node serves
 * one reduction per frame.
 */
public final class ReduceNode implements AutoCloseable {
    /** The result: one float at offset 0 of a 16-byte buffer. */
    public static final BufferDesc RESULT = BufferDesc.of(16);

    private final Reducer reducer;
    private final String name;
    private final ReduceOp op;
    private final long maxCount;
    private final GpuBuffer scratch;

    /**
     * @param name the node's label, scoped by the caller (e.g. {@code "left/reduce"}): its passes are
     *             {@code name}, or {@code name.partials} and {@code name.fold}; all are candidates for the async
             compute queue ({@code async.mode})
     */
    public ReduceNode(GraphRuntime graphs, Reducer reducer, String name, ReduceOp op, long maxCount) {
        VulkanContext ctx = graphs.context();
        this.reducer = reducer;
        this.name = name;
        this.op = op;
        this.maxCount = maxCount;
        long bytes = 0;
        // Scratch for the largest plan up to maxCount (partials grow with n up to the group limit).
        for (long n : new long[]{maxCount, Math.min(maxCount, reducer.settings().singleDispatchMax()),
                Math.min(maxCount, reducer.settings().singleDispatchMax() + 1)}) {
            bytes = Math.max(bytes, reducer.plan(n).scratchBytes());
        }
        this.scratch = new GpuBuffer(ctx, name + ".scratch", bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.DEVICE);
        // The one-pass ticket counter starts at zero: cleared by the first frame recorded, not waited for here.
        graphs.fillOnFirstUse(scratch, 0);
    }

    /**
     * Adds the reduction of {@code count} floats of {@code input}; returns the result's handle. The count
     * is checked against the buffer's declared size here, where the mistake is made: reading past the
     * binding would give a wrong total with nothing but a validation message to say so.
     */
    public BufferHandle add(FrameGraph g, BufferHandle input, long count) {
        if (count > maxCount) {
            throw new IllegalArgumentException("reduce node '" + name + "' was built for at most " + maxCount + " floats, got " + count);
        }
        long capacity = g.desc(input).size() / 4;
        if (count > capacity) {
            throw new IllegalArgumentException("reduce node '" + name + "': count " + count + " exceeds buffer '" + g.name(input) + "', which holds "
                    + capacity + " floats (" + g.desc(input).size() + " bytes); pass at most " + capacity);
        }
        ReducePlan plan = reducer.plan(count);
        BufferHandle scratchHandle = g.importScratch(name + ".scratch", scratch);
        if (plan.onePass()) {
            record Io(BufferHandle in, BufferHandle scratch, BufferHandle out) {
            }
            Io io = g.addPass(name, PassKind.COMPUTE, b -> {
                        b.asyncCompute();
                        return new Io(b.read(input, Access.COMPUTE_READ),
                                b.write(scratchHandle, Access.COMPUTE_READ_WRITE), b.write(b.create(name + ".result", RESULT), Access.COMPUTE_WRITE));
                    },
                    (io2, ctx) -> reducer.recordOnePass(ctx.cmd(), op, plan, ctx.buffer(io2.in()), 0, ctx.buffer(io2.scratch()),
                            ctx.buffer(io2.out()), 0));
            return io.out();
        }
        record Partials(BufferHandle in, BufferHandle scratch) {
        }
        Partials partials = g.addPass(name + ".partials", PassKind.COMPUTE,
                b -> {
                    b.asyncCompute();
                    return new Partials(b.read(input, Access.COMPUTE_READ), b.write(scratchHandle, Access.COMPUTE_WRITE));
                },
                (p, ctx) -> reducer.recordPartials(ctx.cmd(), op, plan, ctx.buffer(p.in()), 0, ctx.buffer(p.scratch())));
        record Fold(BufferHandle scratch, BufferHandle out) {
        }
        Fold fold = g.addPass(name + ".fold", PassKind.COMPUTE,
                b -> {
                    b.asyncCompute();
                    return new Fold(b.read(partials.scratch(), Access.COMPUTE_READ), b.write(b.create(name + ".result", RESULT), Access.COMPUTE_WRITE));
                },
                (f, ctx) -> reducer.recordFold(ctx.cmd(), op, plan, ctx.buffer(f.scratch()), ctx.buffer(f.out()), 0));
        return fold.out();
    }

    @Override
    public void close() {
        scratch.close();
    }
}

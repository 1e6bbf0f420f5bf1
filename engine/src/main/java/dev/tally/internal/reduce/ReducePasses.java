package dev.tally.internal.reduce;

import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceStats;
import dev.tally.reduce.StatsNode;

import dev.tally.graph.FrameGraph;

import dev.tally.reduce.ReduceOp;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;

import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The reduction as a frame-graph node, of one operator ({@link ReduceNode}: a one-float result) or of the statistics
 * ({@link StatsNode}: one {@link ReduceStats#RECORD_BYTES}-byte record): given a buffer handle and a count, it adds its
 * dispatches and returns the handle of a result that stays on the GPU. Large n: passes {@code NAME.partials}
 * and {@code NAME.fold}, with the barrier between them computed by the graph. Small n: one pass
 * {@code NAME}. Each node owns its scratch (partials and the one-pass ticket), so one node serves
 * one reduction per frame.
 */
public final class ReducePasses implements ReduceNode, StatsNode {
    /** The result: one float at offset 0 of a 16-byte buffer. */
    public static final BufferDesc RESULT = BufferDesc.of(16);
    /** The statistics' result: one record. */
    public static final BufferDesc STATS_RESULT = BufferDesc.of(ReduceStats.RECORD_BYTES);

    private final Reducer reducer;
    private final String name;
    /** The operator, or null for the statistics. */
    private final ReduceOp op;
    /** "reduce node" or "statistics node", for messages. */
    private final String kind;
    private final BufferDesc resultDesc;
    private final long maxCount;
    private final TrackedBuffer scratch;
    private final VulkanContext vulkan;

    /**
     * @param name the node's label, scoped by the caller (e.g. {@code "left/reduce"}): its passes are
     *             {@code name}, or {@code name.partials} and {@code name.fold}; all are candidates for the async
             compute queue ({@code async.mode})
     */
    public ReducePasses(GraphRuntime graphs, Reducer reducer, String name, ReduceOp op, long maxCount) {
        this(graphs, reducer, name, java.util.Objects.requireNonNull(op, "op"), maxCount, false);
    }

    /** The statistics node: count, sum, min, max, mean and variance in one read, into one record. */
    public static ReducePasses stats(GraphRuntime graphs, Reducer reducer, String name, long maxCount) {
        return new ReducePasses(graphs, reducer, name, null, maxCount, true);
    }

    private ReducePasses(GraphRuntime graphs, Reducer reducer, String name, ReduceOp op, long maxCount, boolean stats) {
        VulkanContext ctx = graphs.context();
        this.kind = stats ? "statistics node" : "reduce node";
        this.resultDesc = stats ? STATS_RESULT : RESULT;
        this.vulkan = ctx;
        this.reducer = reducer;
        this.name = name;
        this.op = op;
        this.maxCount = maxCount;
        this.partialsName = name + ".partials";
        this.foldName = name + ".fold";
        this.resultName = name + ".result";
        this.scratchName = name + ".scratch";
        long bytes = stats ? ReducePlan.statsScratchBytesUpTo(maxCount, reducer.settings()) : ReducePlan.scratchBytesUpTo(maxCount, reducer.settings());
        this.scratch = new TrackedBuffer(ctx, name + ".scratch", bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
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
        if (scratch.isClosed()) {
            throw new IllegalStateException(kind + " '" + name + "' used after its close(); make another node");
        }
        if (count > maxCount) {
            throw new IllegalArgumentException(kind + " '" + name + "' was built for at most " + maxCount + " floats, got " + count);
        }
        if (g instanceof dev.tally.internal.graph.GraphDeclaration d && !d.owns(input)) {
            throw d.notOwned(input, kind + " '" + name + "' input");   // the node names itself, not the graph's call; built only on the error
        }
        long capacity = g.desc(input).size() / 4;
        if (count > capacity) {
            throw new IllegalArgumentException(kind + " '" + name + "': count " + count + " exceeds buffer '" + g.name(input) + "', which holds "
                    + capacity + " floats (" + g.desc(input).size() + " bytes); pass at most " + capacity);
        }
        if (plan == null || plan.n() != count) {
            plan = reducer.plan(count);   // steady state: the same count every frame, the same plan
            long needed = op == null ? plan.statsScratchBytes() : plan.scratchBytes();
            if (needed > scratch.size()) {
                throw new IllegalStateException("bug: " + kind + " '" + name + "': the plan for " + count + " floats needs " + needed
                        + " bytes of scratch, the node made " + scratch.size() + " for at most " + maxCount);
            }
        }
        setupInput = input;
        setupScratch = g.importScratch(scratchName, scratch);
        setupPlan = plan;
        try {
            if (plan.onePass()) {
                return g.addPass(name, PassKind.COMPUTE, onePassSetup, onePassRecord).out();
            }
            setupScratch = g.addPass(partialsName, PassKind.COMPUTE, partialsSetup, partialsRecord).scratch();
            return g.addPass(foldName, PassKind.COMPUTE, foldSetup, foldRecord).out();
        } finally {
            setupInput = setupScratch = null;
            setupPlan = null;
        }
    }

    // The reduction being declared, read by the setups while addPass runs (no lambda captures per frame); the setups put the
    // plan into the passes' data for their recording.
    private ReducePlan plan;
    private BufferHandle setupInput, setupScratch;
    private ReducePlan setupPlan;
    private final String partialsName, foldName, resultName, scratchName;

    /**
     * The passes' data: one object per pass, rewritten by each frame's setup. The node's passes have fixed names, so they
     * are declared once a frame, and only the frame declared last can be recorded: the frame that reads the data wrote it.
     */
    private static final class Io {
        private BufferHandle in, scratch, out;
        private ReducePlan plan;

        Io set(BufferHandle in, BufferHandle scratch, BufferHandle out, ReducePlan plan) {
            this.in = in;
            this.scratch = scratch;
            this.out = out;
            this.plan = plan;
            return this;
        }

        BufferHandle in() { return in; }
        BufferHandle scratch() { return scratch; }
        BufferHandle out() { return out; }
        ReducePlan plan() { return plan; }
    }

    private final Io onePass = new Io(), partials = new Io(), fold = new Io();

    private final Function<PassBuilder, Io> onePassSetup = b -> {
        b.asyncCompute();
        return onePass.set(b.read(setupInput, Access.COMPUTE_READ), b.write(setupScratch, Access.COMPUTE_READ_WRITE),
                b.write(b.create(resultName(), resultDesc()), Access.COMPUTE_WRITE), setupPlan);
    };
    private final BiConsumer<Io, PassContext> onePassRecord = (io, ctx) -> {
        if (stats()) {
            reducer().recordStatsOnePass(ctx.cmd(), io.plan(), ctx.buffer(io.in()), 0, ctx.buffer(io.scratch()), ctx.buffer(io.out()), 0);
        } else {
            reducer().recordOnePass(ctx.cmd(), op(), io.plan(), ctx.buffer(io.in()), 0, ctx.buffer(io.scratch()), ctx.buffer(io.out()), 0);
        }
    };
    private final Function<PassBuilder, Io> partialsSetup = b -> {
        b.asyncCompute();
        return partials.set(b.read(setupInput, Access.COMPUTE_READ), b.write(setupScratch, Access.COMPUTE_WRITE), null, setupPlan);
    };
    private final BiConsumer<Io, PassContext> partialsRecord = (p, ctx) -> {
        if (stats()) {
            reducer().recordStatsPartials(ctx.cmd(), p.plan(), ctx.buffer(p.in()), 0, ctx.buffer(p.scratch()));
        } else {
            reducer().recordPartials(ctx.cmd(), op(), p.plan(), ctx.buffer(p.in()), 0, ctx.buffer(p.scratch()));
        }
    };
    private final Function<PassBuilder, Io> foldSetup = b -> {
        b.asyncCompute();
        return fold.set(null, b.read(setupScratch, Access.COMPUTE_READ), b.write(b.create(resultName(), resultDesc()), Access.COMPUTE_WRITE), setupPlan);
    };
    private final BiConsumer<Io, PassContext> foldRecord = (f, ctx) -> {
        if (stats()) {
            reducer().recordStatsFold(ctx.cmd(), f.plan(), ctx.buffer(f.scratch()), ctx.buffer(f.out()), 0);
        } else {
            reducer().recordFold(ctx.cmd(), op(), f.plan(), ctx.buffer(f.scratch()), ctx.buffer(f.out()), 0);
        }
    };

    private Reducer reducer() {
        return reducer;
    }

    private ReduceOp op() {
        return op;
    }

    private boolean stats() {
        return op == null;
    }

    private BufferDesc resultDesc() {
        return resultDesc;
    }

    private String resultName() {
        return resultName;
    }

    @Override
    public void close() {
        if (!scratch.isClosed()) {
            vulkan.requireOpen((op == null ? "StatsNode '" : "ReduceNode '") + name + "'");
        }
        scratch.close();
    }
}

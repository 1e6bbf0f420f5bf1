package dev.tally.internal.engine;

import dev.tally.graph.AsyncLane;
import dev.tally.graph.AsyncMode;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.vk.VulkanContext;

import java.util.List;

/** The exported view of the graph runtime's async placement. */
final class EngineAsyncLane implements AsyncLane {
    private final VulkanContext ctx;
    private final GraphRuntime graphs;

    EngineAsyncLane(VulkanContext ctx, GraphRuntime graphs) {
        this.ctx = ctx;
        this.graphs = graphs;
    }

    @Override public AsyncMode mode() { return graphs.asyncMode(); }
    @Override public int queues() { return ctx.asyncQueue() != null ? 2 : 1; }
    @Override public List<String> lastPasses() { return List.copyOf(graphs.lastAsyncPasses()); }

    @Override
    public String choice() {
        return graphs.asyncMode() == AsyncMode.AUTO ? graphs.placement().choice() : null;
    }

    @Override
    public double savedMicros() {
        return graphs.asyncMode() == AsyncMode.AUTO ? graphs.placement().savedMicros() : Double.NaN;
    }
}

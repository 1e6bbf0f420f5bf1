package dev.tally.internal.shader;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Graphics pipelines of one pass, one per target format (a swapchain and an offscreen image may
 * differ), built on first use and rebuilt together on hot reload: if any fails to compile, all the
 * previous ones stay.
 */
public final class PipelinesByFormat implements AutoCloseable {
    private final IntFunction<GraphicsPipeline> build;
    private final Map<Integer, GraphicsPipeline> pipelines = new HashMap<>();

    public PipelinesByFormat(IntFunction<GraphicsPipeline> build) {
        this.build = build;
    }

    public GraphicsPipeline get(int format) {
        GraphicsPipeline p = pipelines.get(format);   // steady state: a lookup, no capturing method reference per call
        if (p == null) {
            p = build.apply(format);
            pipelines.put(format, p);
        }
        return p;
    }

    /** Rebuilds every pipeline from the current sources; on a compile error the old ones stay and it throws. */
    public void reload() {
        Map<Integer, GraphicsPipeline> fresh = new HashMap<>();
        try {
            for (int format : pipelines.keySet()) {
                fresh.put(format, build.apply(format));
            }
        } catch (RuntimeException e) {
            fresh.values().forEach(GraphicsPipeline::close);
            throw e;
        }
        pipelines.values().forEach(GraphicsPipeline::close);
        pipelines.clear();
        pipelines.putAll(fresh);
    }

    @Override
    public void close() {
        pipelines.values().forEach(GraphicsPipeline::close);
        pipelines.clear();
    }
}

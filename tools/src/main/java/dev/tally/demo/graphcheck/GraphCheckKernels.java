package dev.tally.demo.graphcheck;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.shader.BindingType;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.GraphicsPipeline;

import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_FORMAT_R32G32B32A32_SFLOAT;

/** The test kernels random graphs are made of (shaders/graphcheck_*), built once per check. */
final class GraphCheckKernels implements AutoCloseable {
    static final int MIX_PUSH = 28;
    static final int IMAGE_PUSH = 20;
    static final int DRAW_PUSH = 12;
    final ComputeKernel mix;
    final ComputeKernel toImage;
    final ComputeKernel fromImage;
    final GraphicsPipeline draw;

    GraphCheckKernels(Tally tally) {
        var ctx = Engine.of(tally).context();
        ComputeKernel m = null, t = null, f = null;
        try {
            m = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "graphcheck_mix.comp", Map.of(), null, 3, MIX_PUSH);
            t = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "graphcheck_to_image.comp", Map.of(), null,
                    List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_IMAGE), IMAGE_PUSH);
            f = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "graphcheck_from_image.comp", Map.of(), null,
                    List.of(BindingType.STORAGE_IMAGE, BindingType.STORAGE_BUFFER), IMAGE_PUSH);
            draw = new GraphicsPipeline(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "fullscreen.vert", "graphcheck_draw.frag", Map.of(),
                    VK_FORMAT_R32G32B32A32_SFLOAT, false, List.of(BindingType.STORAGE_BUFFER), DRAW_PUSH);
        } catch (RuntimeException e) {
            // A compile error half-way: release what was built, newest first.
            for (ComputeKernel k : new ComputeKernel[]{f, t, m}) {
                if (k != null) {
                    k.close();
                }
            }
            throw e;
        }
        mix = m;
        toImage = t;
        fromImage = f;
    }

    @Override
    public void close() {
        draw.close();
        fromImage.close();
        toImage.close();
        mix.close();
    }
}

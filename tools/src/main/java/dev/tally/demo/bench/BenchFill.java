package dev.tally.demo.bench;

import dev.tally.Tally;
import dev.tally.graph.Access;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassKind;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.shader.BindingType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A benchmark's HDR input written by a compute pass (bench_fill.comp, rgba16f), as a renderer's scene writes its target:
 * one colour with every pixel scaled by its own 1 +- 2 % (inside one histogram bin for a colour at least 0.029 EV from a
 * bin's edge, which the exposure bench's last frame is), so its bits vary as a render's do. On the H200 a transfer
 * clear of a colour, and a flat image written this way, read faster or slower than a scene does for the GPU's
 * compression (BENCHMARKS.md, round 15).
 */
final class BenchFill implements AutoCloseable {
    private final ComputeKernel kernel;
    private final Bindings bindings = new Bindings(1);
    private final ByteBuffer push = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());

    BenchFill(Tally rt) {
        kernel = new ComputeKernel(Engine.of(rt).context(), Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "bench_fill.comp", Map.of(),
                null, List.of(BindingType.STORAGE_IMAGE), 16);
    }

    /** Pass {@code name}: {@code image} (created or imported by the caller's builder, with STORAGE usage) written to (r, g, b, 1), each pixel scaled by its 1 +- 2 %. */
    ImageHandle write(FrameGraph g, String name, Function<PassBuilder, ImageHandle> image, float r, float gr, float b) {
        return g.addPass(name, PassKind.COMPUTE, pb -> pb.write(image.apply(pb), Access.COMPUTE_WRITE), (h, c) -> {
            var target = c.image(h);
            push.clear();
            push.putFloat(0, r).putFloat(4, gr).putFloat(8, b).putFloat(12, 1f);
            kernel.dispatch(c.cmd(), bindings.clear().storageImage(target), push, (target.width() + 15) / 16, (target.height() + 15) / 16);
        });
    }

    @Override
    public void close() {
        kernel.close();
    }
}

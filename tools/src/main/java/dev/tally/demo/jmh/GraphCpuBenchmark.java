package dev.tally.demo.jmh;

import dev.tally.internal.graph.GraphDeclaration;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.internal.graph.PlanningImports;
import dev.tally.internal.vk.ResourceState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.VK_FORMAT_B10G11R11_UFLOAT_PACK32;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R8G8B8A8_UNORM;

/**
 * Tally's own CPU per frame, apart from the driver: a whole frame (begin, declaration, cached compile and
 * barriers, recording: each pass's execute step runs) on a runtime with no GPU behind it
 * ({@link GraphRuntime#withoutGpu}), so that nothing of the time or garbage is a driver's.
 * <ul>
 *   <li>{@link #demoFrame}: the demo's frame graph as it runs on the H200 (scene, histogram, reduce, exposure, tonemap,
 *   exposure plot, HUD in compute, readback: 8 passes over 14 resources, the readback slot's name turning over a ring of three),
 *   declared the way nodes declare (steps made once, handles in fields). Histories and scratch buffers are
 *   described imports here (they need a device); the nodes' own work (descriptor bindings, pass data) is not in it.</li>
 *   <li>{@link #exampleFrame}: the embedding example's frame with two views (per view: its HDR target imported, the
 *   histogram, reduction and exposure, a readback capture), declared the same way.</li>
 *   <li>{@link #demoFrameEvicted}: the demo's frame with the caches evicted before it, as the driver's work evicts them in a
 *   real frame loop.</li>
 *   <li>{@link #chain}: a chain of {@code passes} compute passes, each reading the last one's transient: the cost
 *   per pass is the slope between two lengths.</li>
 * </ul>
 * Run (bytes per frame from {@code -prof gc}'s {@code gc.alloc.rate.norm}):
 * {@code java -cp tools/target/tally-tools.jar:tools/target/lib/* org.openjdk.jmh.Main GraphCpuBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class GraphCpuBenchmark {
    private static final BiConsumer<Object, PassContext> RECORD_NOTHING = (data, ctx) -> {
    };

    @SuppressWarnings("unchecked")
    private static <T> BiConsumer<T, PassContext> noop() {
        return (BiConsumer<T, PassContext>) (BiConsumer<?, PassContext>) RECORD_NOTHING;
    }

    /** A graph benchmarked frame after frame on a runtime with no GPU: each state declares its own passes. */
    public abstract static class GraphFrames {
        GraphRuntime runtime;
        long frame;

        @Setup
        public void setUpRuntime() {
            runtime = GraphRuntime.withoutGpu(2);
        }

        @TearDown
        public void tearDown() {
            runtime.close();
        }

        abstract void declare(FrameGraph g);

        /** One frame: begin, declare, compile (cached), plan barriers (cached), record; its pass count. */
        int frame() {
            FrameGraph g = runtime.begin(frame, frame + 1);
            frame++;
            declare(g);
            runtime.record(GraphDeclaration.of(g), null);
            return GraphDeclaration.of(g).passCount();
        }
    }

    /** The demo's frame at 64x36, resources and uses as its graph declares them. */
    @State(Scope.Thread)
    public static class DemoFrame extends GraphFrames {
        private static final ImageDesc HDR = ImageDesc.of(64, 36, VK_FORMAT_B10G11R11_UFLOAT_PACK32);
        private static final ImageDesc OUTPUT = ImageDesc.of(64, 36, VK_FORMAT_R8G8B8A8_UNORM);
        private static final BufferDesc BINS = BufferDesc.of(1024);
        private static final BufferDesc RESULT = BufferDesc.of(16);
        private static final BufferDesc NORMALIZED = BufferDesc.of(1028);
        private final String[] slots = {"readback.slot0", "readback.slot1", "readback.slot2"};

        // Handles between passes, as nodes keep them.
        private BufferHandle accumulator, reduceScratch, curve, filtered, filteredPrev, history, historyPrev, plot, slot;
        private ImageHandle hdr, output;
        private BufferHandle bins, result, normalized;

        private final Function<PassBuilder, ImageHandle> scene = s -> s.write(s.create("hdr", HDR), Access.COMPUTE_WRITE);
        private final Function<PassBuilder, BufferHandle> histogram = s -> {
            s.read(hdr, Access.COMPUTE_READ);
            accumulator = s.write(accumulator, Access.COMPUTE_READ_WRITE);
            return s.write(s.create("histogram.bins", BINS), Access.COMPUTE_WRITE);
        };
        private final Function<PassBuilder, BufferHandle> reduce = s -> {
            s.read(bins, Access.COMPUTE_READ);
            reduceScratch = s.write(reduceScratch, Access.COMPUTE_READ_WRITE);
            return s.write(s.create("reduce.result", RESULT), Access.COMPUTE_WRITE);
        };
        private final Function<PassBuilder, BufferHandle> exposure = s -> {
            s.read(bins, Access.COMPUTE_READ);
            s.read(result, Access.COMPUTE_READ);
            s.read(filteredPrev, Access.COMPUTE_READ);
            s.read(historyPrev, Access.COMPUTE_READ);
            s.read(curve, Access.COMPUTE_READ);
            filtered = s.write(filtered, Access.COMPUTE_WRITE);
            history = s.write(history, Access.COMPUTE_WRITE);
            return s.write(s.create("histogram.normalized", NORMALIZED), Access.COMPUTE_WRITE);
        };
        private final Function<PassBuilder, BufferHandle> hudPlot = s -> {
            s.read(history, Access.COMPUTE_READ);
            return s.write(plot, Access.COMPUTE_READ_WRITE);
        };
        private final Function<PassBuilder, ImageHandle> tonemap = s -> {
            s.read(hdr, Access.COMPUTE_SAMPLED);
            s.read(history, Access.COMPUTE_READ);
            return s.write(output, Access.COMPUTE_WRITE);
        };
        private final Function<PassBuilder, ImageHandle> hud = s -> {
            s.read(normalized, Access.COMPUTE_READ);
            s.read(history, Access.COMPUTE_READ);
            s.read(plot, Access.COMPUTE_READ);
            return s.write(output, Access.COMPUTE_READ_WRITE);
        };
        private final Function<PassBuilder, BufferHandle> readback = s -> {
            s.read(result, Access.TRANSFER_SRC);
            s.read(history, Access.TRANSFER_SRC);
            s.read(normalized, Access.TRANSFER_SRC);
            s.read(hdr, Access.TRANSFER_SRC);
            s.sideEffect();
            return s.write(slot, Access.TRANSFER_DST);
        };

        @Override
        void declare(FrameGraph g) {
            accumulator = PlanningImports.buffer(GraphDeclaration.of(g), "histogram.accumulator", 2064, ResourceState.UNUSED, null);
            reduceScratch = PlanningImports.buffer(GraphDeclaration.of(g), "reduce.scratch", 20, ResourceState.UNUSED, null);
            curve = PlanningImports.buffer(GraphDeclaration.of(g), "exposure.curve", 272, ResourceState.UNUSED, null);
            filtered = PlanningImports.buffer(GraphDeclaration.of(g), "exposure.filteredHistogram", 1028, ResourceState.UNUSED, null);
            filteredPrev = PlanningImports.buffer(GraphDeclaration.of(g), "exposure.filteredHistogram@prev", 1028, ResourceState.UNUSED, null);
            history = PlanningImports.buffer(GraphDeclaration.of(g), "exposure.history", 64, ResourceState.UNUSED, null);
            historyPrev = PlanningImports.buffer(GraphDeclaration.of(g), "exposure.history@prev", 64, ResourceState.UNUSED, null);
            output = PlanningImports.image(GraphDeclaration.of(g), "output", OUTPUT, ResourceState.UNUSED, null);
            plot = PlanningImports.buffer(GraphDeclaration.of(g), "hud.plot", 16400, ResourceState.UNUSED, null);
            slot = PlanningImports.buffer(GraphDeclaration.of(g), slots[(int) (g.frame() % slots.length)], 1384, ResourceState.UNUSED, Access.HOST_READ);
            hdr = g.addPass("scene", PassKind.COMPUTE, scene, noop());
            bins = g.addPass("histogram", PassKind.COMPUTE, histogram, noop());
            result = g.addPass("reduce", PassKind.COMPUTE, reduce, noop());
            normalized = g.addPass("exposure", PassKind.COMPUTE, exposure, noop());
            output = g.addPass("tonemap", PassKind.COMPUTE, tonemap, noop());
            plot = g.addPass("hud.plot", PassKind.COMPUTE, hudPlot, noop());
            output = g.addPass("hud", PassKind.COMPUTE, hud, noop());
            slot = g.addPass("readback", PassKind.TRANSFER, readback, noop());
        }
    }

    /**
     * The embedding example's frame with two views, as its graph declares it: per view the host's HDR target imported
     * (left as a colour attachment), the histogram, the reduction and the exposure, and a readback capture of the total,
     * the exposure record and the bins into the view's ring slot (8 passes over 24 resources).
     */
    @State(Scope.Thread)
    public static class ExampleFrame extends GraphFrames {
        private static final BufferDesc BINS = BufferDesc.of(1024);
        private static final BufferDesc RESULT = BufferDesc.of(16);
        private static final BufferDesc NORMALIZED = BufferDesc.of(1028);
        private static final ImageDesc[] TARGETS = {ImageDesc.of(320, 180, VK_FORMAT_B10G11R11_UFLOAT_PACK32),
                ImageDesc.of(160, 120, VK_FORMAT_B10G11R11_UFLOAT_PACK32)};
        private static final ResourceState COLOUR = ResourceState.after(Access.COLOR_ATTACHMENT);

        private final View[] views = {new View("left"), new View("right")};

        /** One view's names (made once) and the steps of its passes, handles between them in fields as nodes keep them. */
        private static final class View {
            final String hdrName, accumulatorName, scratchName, curveName, filteredName, filteredPrevName, historyName, historyPrevName;
            final String histogramPass, reducePass, exposurePass, readbackPass;
            /** Read by the steps below when they run; set by the constructor, after the steps were made (so not final). */
            String binsName, resultName, normalizedName;
            final String[] slots;
            ImageHandle hdr;
            BufferHandle accumulator, scratch, curve, filtered, filteredPrev, history, historyPrev, bins, result, slot;

            View(String name) {
                hdrName = name + "/hdr";
                accumulatorName = name + "/histogram.accumulator";
                scratchName = name + "/reduce.scratch";
                curveName = name + "/exposure.curve";
                filteredName = name + "/exposure.filteredHistogram";
                filteredPrevName = filteredName + "@prev";
                historyName = name + "/exposure.history";
                historyPrevName = historyName + "@prev";
                histogramPass = name + "/histogram";
                reducePass = name + "/reduce";
                exposurePass = name + "/exposure";
                readbackPass = name + "/readback";
                binsName = name + "/histogram.bins";
                resultName = name + "/reduce.result";
                normalizedName = name + "/histogram.normalized";
                slots = new String[]{name + "/readback.slot0", name + "/readback.slot1", name + "/readback.slot2"};
            }

            final Function<PassBuilder, BufferHandle> histogram = s -> {
                s.read(hdr, Access.COMPUTE_SAMPLED);
                accumulator = s.write(accumulator, Access.COMPUTE_READ_WRITE);
                return s.write(s.create(binsName, BINS), Access.COMPUTE_WRITE);
            };
            final Function<PassBuilder, BufferHandle> reduce = s -> {
                s.read(bins, Access.COMPUTE_READ);
                scratch = s.write(scratch, Access.COMPUTE_READ_WRITE);
                return s.write(s.create(resultName, RESULT), Access.COMPUTE_WRITE);
            };
            final Function<PassBuilder, BufferHandle> exposure = s -> {
                s.read(bins, Access.COMPUTE_READ);
                s.read(result, Access.COMPUTE_READ);
                s.read(filteredPrev, Access.COMPUTE_READ);
                s.read(historyPrev, Access.COMPUTE_READ);
                s.read(curve, Access.COMPUTE_READ);
                filtered = s.write(filtered, Access.COMPUTE_WRITE);
                s.write(s.create(normalizedName, NORMALIZED), Access.COMPUTE_WRITE);
                return s.write(history, Access.COMPUTE_WRITE);
            };
            final Function<PassBuilder, BufferHandle> readback = s -> {
                s.read(result, Access.TRANSFER_SRC);
                s.read(history, Access.TRANSFER_SRC);
                s.read(bins, Access.TRANSFER_SRC);
                s.sideEffect();
                return s.write(slot, Access.TRANSFER_DST);
            };

            void declare(FrameGraph g, ImageDesc target) {
                GraphDeclaration d = GraphDeclaration.of(g);
                hdr = PlanningImports.image(d, hdrName, target, COLOUR, Access.COLOR_ATTACHMENT);
                accumulator = PlanningImports.buffer(d, accumulatorName, 2064, ResourceState.UNUSED, null);
                scratch = PlanningImports.buffer(d, scratchName, 20, ResourceState.UNUSED, null);
                curve = PlanningImports.buffer(d, curveName, 272, ResourceState.UNUSED, null);
                filtered = PlanningImports.buffer(d, filteredName, 1028, ResourceState.UNUSED, null);
                filteredPrev = PlanningImports.buffer(d, filteredPrevName, 1028, ResourceState.UNUSED, null);
                history = PlanningImports.buffer(d, historyName, 64, ResourceState.UNUSED, null);
                historyPrev = PlanningImports.buffer(d, historyPrevName, 64, ResourceState.UNUSED, null);
                bins = g.addPass(histogramPass, PassKind.COMPUTE, histogram, noop());
                result = g.addPass(reducePass, PassKind.COMPUTE, reduce, noop());
                history = g.addPass(exposurePass, PassKind.COMPUTE, exposure, noop());
                slot = PlanningImports.buffer(d, slots[(int) (g.frame() % slots.length)], 1060, ResourceState.UNUSED, Access.HOST_READ);
                slot = g.addPass(readbackPass, PassKind.TRANSFER, readback, noop());
            }
        }

        @Override
        void declare(FrameGraph g) {
            for (int i = 0; i < views.length; i++) {
                views[i].declare(g, TARGETS[i]);
            }
        }
    }

    /** A chain of {@code passes} compute passes over 1 KB transients. */
    @State(Scope.Thread)
    public static class Chain extends GraphFrames {
        private static final BufferDesc LINK = BufferDesc.of(1024);

        @Param({"8", "64"})
        public int passes;

        private String[] names;
        private String[] linkNames;
        private BufferHandle last;
        private BufferHandle out;
        private int at;
        private final Function<PassBuilder, BufferHandle> first = s -> s.write(s.create(linkNames[0], LINK), Access.COMPUTE_WRITE);
        private final Function<PassBuilder, BufferHandle> link = s -> {
            s.read(last, Access.COMPUTE_READ);
            return s.write(s.create(linkNames[at], LINK), Access.COMPUTE_WRITE);
        };
        private final Function<PassBuilder, BufferHandle> end = s -> {
            s.read(last, Access.COMPUTE_READ);
            return s.write(out, Access.COMPUTE_WRITE);
        };

        @Setup
        public void setUpNames() {
            names = new String[passes];
            linkNames = new String[passes];
            for (int i = 0; i < passes; i++) {
                names[i] = "pass" + i;
                linkNames[i] = "link" + i;
            }
        }

        @Override
        void declare(FrameGraph g) {
            out = PlanningImports.buffer(GraphDeclaration.of(g), "out", 1024, ResourceState.UNUSED, Access.HOST_READ);
            last = g.addPass(names[0], PassKind.COMPUTE, first, noop());
            for (at = 1; at < passes - 1; at++) {
                last = g.addPass(names[at], PassKind.COMPUTE, link, noop());
            }
            out = g.addPass(names[passes - 1], PassKind.COMPUTE, end, noop());
        }
    }

    /**
     * The demo's frame after its data left the caches, as in a real frame, where the driver's work runs between Tally's
     * steps: before each frame (outside the timing) {@link #EVICTING_WRITES} writes to random cache lines of a buffer of
     * {@code evictMiB} MiB. On the H100 machine's CPU the demo's declarations took about twice inside the frame loop what
     * this benchmark's warm frame takes; a frame evicted through 4 MiB takes about twice the warm one here too.
     */
    @State(Scope.Thread)
    public static class EvictedDemoFrame extends DemoFrame {
        /** Random line writes before each frame: about 1.2 MiB of lines, more than a core's L2. */
        static final int EVICTING_WRITES = 20_000;

        @Param({"4", "64"})
        public int evictMiB;
        private long[] lines;
        private long seed = 1;

        @Setup
        public void allocate() {
            lines = new long[evictMiB << 17];
        }

        @Setup(Level.Invocation)
        public void evict() {
            long x = seed++;
            int mask = lines.length - 1;
            for (int i = 0; i < EVICTING_WRITES; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;   // a linear congruential walk: no pattern a prefetcher follows
                lines[(int) (x >>> 24) & mask & ~7] += i;
            }
        }
    }

    /** One demo frame. */
    @Benchmark
    public int demoFrame(DemoFrame s) {
        return s.frame();
    }

    /** One demo frame, its data first evicted from the caches. */
    @Benchmark
    public int demoFrameEvicted(EvictedDemoFrame s) {
        return s.frame();
    }

    /** One frame of the embedding example's two views. */
    @Benchmark
    public int exampleFrame(ExampleFrame s) {
        return s.frame();
    }

    /** One frame of the chain. */
    @Benchmark
    public int chain(Chain s) {
        return s.frame();
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args.length == 0 ? new String[]{GraphCpuBenchmark.class.getSimpleName(), "-prof", "gc"} : args);
    }
}

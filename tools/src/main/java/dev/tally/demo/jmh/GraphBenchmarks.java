package dev.tally.demo.jmh;

import dev.tally.internal.graph.GraphDeclaration;

import dev.tally.graph.Access;
import dev.tally.internal.graph.BarrierPlanner;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphPlan;
import dev.tally.graph.Handle;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

import static org.lwjgl.vulkan.VK10.VK_FORMAT_R16G16B16A16_SFLOAT;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R8G8B8A8_UNORM;
import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

/**
 * CPU cost of the frame graph's planning alone, without a GPU ({@code new FrameGraph()}); the cost of a whole frame on
 * the path the runtime takes (recording, submission, ring) is {@link FrameBenchmark}:
 * <ul>
 *   <li>{@link #frame10FullCompile}: declare a 10-pass frame, compile it and plan its barriers (a frame whose plan is not cached);</li>
 *   <li>{@link #frame10DeclareOnly}, {@link #frame10BarriersOnly}: the declaration alone, the barrier planning alone, for the breakdown;</li>
 *   <li>{@link #compile1000}: compile a declared 1000-pass synthetic graph (chains and fan-ins over 300 transients);</li>
 *   <li>{@link #declareCompilePlan1000}: declare, compile and plan the barriers of that graph, for the breakdown.</li>
 * </ul>
 * Run: {@code java -cp tools/target/tally-tools.jar:tools/target/lib/* org.openjdk.jmh.Main GraphBenchmarks}, or this
 * class's {@link #main} (same arguments; the include pattern defaults to this class).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 8, time = 2) // on 2 busy cores, C2 needs ~15 s before the 1000-pass benchmarks settle
@Measurement(iterations = 5, time = 2)
public class GraphBenchmarks {
    private static final BiConsumer<Object, PassContext> RECORD_NOTHING = (data, ctx) -> {
    };
    private static final IntFunction<ResourceState> UNTOUCHED_SLOTS = s -> ResourceState.UNUSED;
    private static final float[] CLEAR = {0, 0, 0, 1};

    @SuppressWarnings("unchecked")
    private static <T> BiConsumer<T, PassContext> noop() {
        return (BiConsumer<T, PassContext>) (BiConsumer<?, PassContext>) RECORD_NOTHING;
    }

    // --------------------------------------------------------------------------------------------
    // The 10-pass frame: upload, GPU culling, a G-buffer, SSAO, lighting, exposure from a histogram,
    // tonemapping to the swapchain, a debug pass nobody reads (culled) and a readback to the host.

    private static final int W = 1920, H = 1080;
    private static final ResourceState ACQUIRED = new ResourceState(VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, 0, 0,
            VK_IMAGE_LAYOUT_UNDEFINED);
    private static final ImageDesc SWAPCHAIN = ImageDesc.of(W, H, VK_FORMAT_R8G8B8A8_UNORM);
    private static final ImageDesc RGBA8 = ImageDesc.of(W, H, VK_FORMAT_R8G8B8A8_UNORM);
    private static final ImageDesc RGBA16F = ImageDesc.of(W, H, VK_FORMAT_R16G16B16A16_SFLOAT);

    private record Culled(BufferHandle visible, BufferHandle counts) {
    }

    private record GBuffer(ImageHandle albedo, ImageHandle normals) {
    }

    private record Exposure(BufferHandle exposure) {
    }

    /**
     * Declares the frame, given where the last frame left the staging and readback imports (the swapchain
     * image is always acquired fresh).
     */
    static FrameGraph declareFrame(ResourceState stagingEntry, ResourceState readbackEntry) {
        FrameGraph g = new GraphDeclaration();
        BufferHandle staging = PlanningImports.buffer(GraphDeclaration.of(g), "staging", 1 << 20, stagingEntry, null);
        BufferHandle readback = PlanningImports.buffer(GraphDeclaration.of(g), "readback", 256, readbackEntry, Access.HOST_READ);
        ImageHandle swapchain = PlanningImports.image(GraphDeclaration.of(g), "swapchain", SWAPCHAIN, ACQUIRED, Access.PRESENT);

        BufferHandle instances = g.addPass("upload", PassKind.TRANSFER, s -> {
            s.read(staging, Access.TRANSFER_SRC);
            return s.write(s.create("instances", BufferDesc.of(1 << 20)), Access.TRANSFER_DST);
        }, noop());
        Culled culled = g.addPass("cull", PassKind.COMPUTE, s -> {
            s.read(instances, Access.COMPUTE_READ);
            return new Culled(s.write(s.create("visible", BufferDesc.of(1 << 20)), Access.COMPUTE_WRITE),
                    s.write(s.create("counts", BufferDesc.of(64)), Access.COMPUTE_WRITE));
        }, noop());
        GBuffer gbuffer = g.addPass("gbuffer", PassKind.GRAPHICS, s -> {
            s.read(culled.visible(), Access.GRAPHICS_READ);
            return new GBuffer(s.colorAttachment(s.create("albedo", RGBA8), CLEAR), s.colorAttachment(s.create("normals", RGBA16F), CLEAR));
        }, noop());
        ImageHandle ao = g.addPass("ssao", PassKind.COMPUTE, s -> {
            s.read(gbuffer.normals(), Access.COMPUTE_SAMPLED);
            return s.write(s.create("ao", RGBA8), Access.COMPUTE_WRITE);
        }, noop());
        ImageHandle hdr = g.addPass("lighting", PassKind.COMPUTE, s -> {
            s.read(gbuffer.albedo(), Access.COMPUTE_SAMPLED);
            s.read(gbuffer.normals(), Access.COMPUTE_SAMPLED);
            s.read(ao, Access.COMPUTE_SAMPLED);
            return s.write(s.create("hdr", RGBA16F), Access.COMPUTE_WRITE);
        }, noop());
        BufferHandle histogram = g.addPass("histogram", PassKind.COMPUTE, s -> {
            s.read(hdr, Access.COMPUTE_SAMPLED);
            return s.write(s.create("histogram", BufferDesc.of(1024)), Access.COMPUTE_WRITE);
        }, noop());
        Exposure exposure = g.addPass("exposure", PassKind.COMPUTE, s -> {
            s.read(histogram, Access.COMPUTE_READ);
            return new Exposure(s.write(s.create("exposure", BufferDesc.of(16)), Access.COMPUTE_WRITE));
        }, noop());
        g.addPass("tonemap", PassKind.GRAPHICS, s -> {
            s.read(hdr, Access.FRAGMENT_SAMPLED);
            s.read(exposure.exposure(), Access.GRAPHICS_READ);
            return s.colorAttachment(swapchain, CLEAR);
        }, noop());
        g.addPass("debugOverlay", PassKind.COMPUTE, s -> {
            s.read(ao, Access.COMPUTE_SAMPLED);
            return s.write(s.create("debug", RGBA8), Access.COMPUTE_WRITE);
        }, noop());
        g.addPass("readback", PassKind.TRANSFER, s -> {
            s.read(culled.counts(), Access.TRANSFER_SRC);
            s.read(exposure.exposure(), Access.TRANSFER_SRC);
            return s.write(readback, Access.TRANSFER_DST);
        }, noop());
        return g;
    }

    @State(Scope.Thread)
    public static class Frame10 {
        ResourceState stagingEntry;
        ResourceState readbackEntry;
        FrameGraph declared;
        GraphPlan plan;

        @Setup(Level.Trial)
        public void setup() {
            // Where the previous frame left the imports: staging written by the host, readback read by it.
            stagingEntry = ResourceState.after(Access.TRANSFER_DST);
            readbackEntry = ResourceState.after(Access.HOST_READ);
            FrameGraph g = declareFrame(stagingEntry, readbackEntry);
            plan = GraphDeclaration.of(g).compile();
            declared = g;
            if (GraphDeclaration.of(g).passCount() != 10 || plan.order().size() != 9 || plan.culled().size() != 1) {
                throw new IllegalStateException("the 10-pass frame changed: " + plan.order() + " culled " + plan.culled());
            }
        }
    }

    /** Per-frame cost when the plan is not cached: declare, compile, plan barriers. */
    @Benchmark
    public BarrierPlanner.Barriers frame10FullCompile(Frame10 s) {
        FrameGraph g = declareFrame(s.stagingEntry, s.readbackEntry);
        GraphPlan plan = GraphDeclaration.of(g).compile();
        return BarrierPlanner.plan(GraphDeclaration.of(g), plan, UNTOUCHED_SLOTS);
    }

    /** Barrier planning alone for a declared frame and its plan (part of both frame benchmarks). */
    @Benchmark
    public BarrierPlanner.Barriers frame10BarriersOnly(Frame10 s) {
        return BarrierPlanner.plan(GraphDeclaration.of(s.declared), s.plan, UNTOUCHED_SLOTS);
    }

    /** The declaration alone (part of both frame benchmarks). */
    @Benchmark
    public FrameGraph frame10DeclareOnly(Frame10 s) {
        return declareFrame(s.stagingEntry, s.readbackEntry);
    }

    // --------------------------------------------------------------------------------------------
    // The 1000-pass synthetic graph.

    static final int BIG_PASSES = 1000;
    static final int BIG_TRANSIENTS = 300;

    /**
     * Chains (each pass reads what the previous one wrote) and fan-ins (every seventh pass reads 3 to 5
     * live resources), over {@code transients} transient buffers and images created along the way;
     * the rest of the passes write new versions of live resources. Every sixth pass starts a side branch
     * that is rarely read. Every 25th pass writes one of four imported buffers, which keeps its ancestors;
     * passes nobody depends on are culled. Deterministic.
     */
    static FrameGraph declareSynthetic(int passes, int transients, long seed) {
        Random rnd = new Random(seed);
        FrameGraph g = new GraphDeclaration();
        BufferHandle[] sinks = new BufferHandle[4];
        for (int i = 0; i < sinks.length; i++) {
            sinks[i] = PlanningImports.buffer(GraphDeclaration.of(g), "sink" + i, 4096, ResourceState.UNUSED, i == 0 ? Access.HOST_READ : null);
        }
        List<Handle> live = new ArrayList<>(); // current version of each created resource; the chain continues from the last
        int created = 0;
        for (int i = 0; i < passes; i++) {
            String name = "p" + i;
            List<Integer> reads = new ArrayList<>();
            if (!live.isEmpty()) {
                int fan = i % 7 == 0 ? 3 + rnd.nextInt(3) : 1;
                reads.add(live.size() - 1); // the chain: what the previous writer produced
                for (int k = 1; k < fan && reads.size() < live.size(); k++) {
                    int pick = Math.max(0, live.size() - 1 - rnd.nextInt(Math.min(live.size(), 40)));
                    if (!reads.contains(pick)) {
                        reads.add(pick);
                    }
                }
            }
            if (i % 25 == 24) {
                BufferHandle sink = sinks[(i / 25) % sinks.length];
                List<Handle> in = new ArrayList<>();
                for (int r : reads) {
                    in.add(live.get(r));
                }
                sinks[(i / 25) % sinks.length] = g.addPass(name, PassKind.COMPUTE, s -> {
                    for (Handle h : in) {
                        s.read(h, h instanceof ImageHandle ? Access.COMPUTE_SAMPLED : Access.COMPUTE_READ);
                    }
                    return s.write(sink, Access.COMPUTE_WRITE);
                }, noop());
                continue;
            }
            boolean create = created < transients && (live.isEmpty() || rnd.nextInt(passes - i) < transients - created);
            int target = -1;
            boolean inPlace = false;
            if (!create) {
                // Overwrite a live resource this pass does not read (a new version of it).
                for (int tries = 0; tries < 8 && target < 0; tries++) {
                    int pick = rnd.nextInt(live.size());
                    if (!reads.contains(pick)) {
                        target = pick;
                    }
                }
                if (target < 0) {
                    create = created < transients;
                    if (!create) {
                        target = reads.remove(0); // read-modify-write in place
                        inPlace = true;
                    }
                }
            }
            boolean image = create ? created % 10 == 9 : live.get(target) instanceof ImageHandle;
            boolean readsImage = false;
            for (int r : reads) {
                readsImage |= live.get(r) instanceof ImageHandle;
            }
            PassKind kind = !image && !readsImage && !inPlace && rnd.nextInt(5) == 0 ? PassKind.TRANSFER : PassKind.COMPUTE;
            List<Handle> in = new ArrayList<>();
            for (int r : reads) {
                in.add(live.get(r));
            }
            Handle old = create ? null : live.get(target);
            String resource = create ? "t" + created : null;
            boolean readModifyWrite = inPlace;
            Handle written = g.addPass(name, kind, s -> {
                for (Handle h : in) {
                    s.read(h, kind == PassKind.TRANSFER ? Access.TRANSFER_SRC
                            : h instanceof ImageHandle ? Access.COMPUTE_SAMPLED : Access.COMPUTE_READ);
                }
                Handle out = old != null ? old : image ? s.create(resource, ImageDesc.of(256, 256, VK_FORMAT_R8G8B8A8_UNORM))
                        : s.create(resource, BufferDesc.of(4096L * (1 + (resource.hashCode() & 15))));
                Access w = kind == PassKind.TRANSFER ? Access.TRANSFER_DST : readModifyWrite ? Access.COMPUTE_READ_WRITE : Access.COMPUTE_WRITE;
                return s.write(out, w);
            }, noop());
            // Usually the resource just written continues the chain; every sixth pass starts a side branch
            // instead (put with the oldest resources, rarely read again: mostly culled).
            boolean branch = i % 6 == 3;
            if (create) {
                live.add(branch ? 0 : live.size(), written);
                created++;
            } else {
                live.remove(target);
                live.add(branch ? 0 : live.size(), written);
            }
        }
        return g;
    }

    @State(Scope.Thread)
    public static class Big {
        FrameGraph graph;

        @Setup(Level.Trial)
        public void setup() {
            graph = declareSynthetic(BIG_PASSES, BIG_TRANSIENTS, 42);
            GraphPlan plan = GraphDeclaration.of(graph).compile();
            long transients = plan.slots().stream().mapToLong(sl -> sl.members().size()).sum();
            System.err.printf("synthetic graph: %d passes (%d kept, %d culled), %d transients used in %d slots, %d of %d bytes allocated%n",
                    GraphDeclaration.of(graph).passCount(), plan.order().size(), plan.culled().size(), transients, plan.slots().size(), plan.allocatedBytes(),
                    plan.requestedBytes(GraphDeclaration.of(graph)));
        }
    }

    /** Compile (order check, cull, order, alias) a declared 1000-pass graph. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public GraphPlan compile1000(Big s) {
        return GraphDeclaration.of(s.graph).compile();
    }

    /** Declare, compile and plan barriers of the 1000-pass graph (breakdown only). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public BarrierPlanner.Barriers declareCompilePlan1000() {
        FrameGraph g = declareSynthetic(BIG_PASSES, BIG_TRANSIENTS, 42);
        return BarrierPlanner.plan(GraphDeclaration.of(g), GraphDeclaration.of(g).compile(), UNTOUCHED_SLOTS);
    }

    /**
     * Runs JMH: same arguments as {@code org.openjdk.jmh.Main}; without an include pattern, only these
     * benchmarks run.
     */
    public static void main(String[] args) throws Exception {
        // JMH's options all take a value, except these.
        java.util.Set<String> flags = java.util.Set.of("-h", "-l", "-lp", "-lrf", "-lprof");
        boolean hasPattern = false;
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("-")) {
                hasPattern = true;
            } else if (!flags.contains(args[i])) {
                i++;
            }
        }
        String[] all = args;
        if (!hasPattern) {
            all = new String[args.length + 1];
            System.arraycopy(args, 0, all, 0, args.length);
            all[args.length] = GraphBenchmarks.class.getSimpleName();
        }
        org.openjdk.jmh.Main.main(all);
    }
}

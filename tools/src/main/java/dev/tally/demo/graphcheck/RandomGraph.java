package dev.tally.demo.graphcheck;

import dev.tally.internal.graph.GraphDeclaration;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.Handle;
import dev.tally.internal.graph.HistoryBuffer;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassKind;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.lwjgl.vulkan.VK10.*;

/**
 * A random legal frame graph, the same for the same seed: 4 to 10 passes (compute, graphics, transfer)
 * over transient buffers and images, one or two imported buffers carried across frames, and sometimes a
 * history buffer. Each pass reads the latest version of what earlier passes made and writes a new
 * transient (or updates an import in place); every resource's last version is copied to the host at the
 * end of the frame. Compute passes are tagged for the async compute queue at random.
 * <p>
 * Every pass writes the whole of what it creates, so no output depends on memory nobody wrote: NaN
 * poisoning, pass order and queue lanes cannot change a byte unless a barrier or dependency is wrong.
 */
public final class RandomGraph implements CheckedGraph {
    static final int COUNT = 256;
    static final int SIDE = 16;
    private static final BufferDesc BUFFER = BufferDesc.of(4L * COUNT);
    private static final ImageDesc IMAGE = ImageDesc.of(SIDE, SIDE, VK_FORMAT_R32G32B32A32_SFLOAT);

    /** Faults a check must catch, for showing that it can fail. */
    public enum Fault {
        NONE,
        /** Mixing passes write only the first half of their output, leaving the rest as whatever the memory held. */
        HALF_WRITE
    }

    private final long seed;
    private final GraphCheckKernels kernels;
    private final Fault fault;

    RandomGraph(long seed, GraphCheckKernels kernels, Fault fault) {
        this.seed = seed;
        this.kernels = kernels;
        this.fault = fault;
    }

    @Override
    public String name() {
        return "random " + seed;
    }

    @Override
    public Run start(Tally tally) {
        Random shape = new Random(seed);
        int imports = 1 + shape.nextInt(2);
        boolean history = shape.nextBoolean();
        GraphRuntime graphs = Engine.of(tally).graphs();
        List<TrackedBuffer> importBuffers = new ArrayList<>();
        for (int i = 0; i < imports; i++) {
            TrackedBuffer b = new TrackedBuffer(Engine.of(tally).context(), "import" + i, BUFFER.size(), BufferDesc.DEFAULT_USAGE, MemoryKind.DEVICE);
            graphs.fillOnFirstUse(b, Float.floatToIntBits(i + 1));
            importBuffers.add(b);
        }
        HistoryBuffer h = history ? graphs.history("history", BUFFER, 0) : null;
        return new Run() {
            @Override
            public void declare(Frame frame, int frameIndex, HostCopies copies) {
                declareFrame(frame.graph(), frameIndex, importBuffers, h, copies);
            }

            @Override
            public void close() {
                importBuffers.forEach(TrackedBuffer::close);   // destruction deferred past the frames that used them
            }
        };
    }

    /** A value a later pass may use: the latest version of one resource. */
    private record Value(String name, Handle handle, boolean updatable) {
        boolean image() {
            return handle instanceof ImageHandle;
        }
    }

    private void declareFrame(FrameGraph g, int frameIndex, List<TrackedBuffer> imports, HistoryBuffer history, HostCopies copies) {
        Random r = new Random(seed);
        r.nextInt(2);
        r.nextBoolean();   // the shape drawn in start()
        List<Value> live = new ArrayList<>();
        for (int i = 0; i < imports.size(); i++) {
            live.add(new Value("import" + i, g.importBuffer("import" + i, imports.get(i), null), true));
        }
        GraphDeclaration.History hist = history == null ? null : GraphDeclaration.of(g).history(history);
        if (hist != null) {
            live.add(new Value("history@prev", hist.previous(), false));
        }
        int passes = 4 + r.nextInt(7);
        int historyAt = r.nextInt(passes);
        for (int p = 0; p < passes; p++) {
            float c = frameIndex * 0.25f + p * 0.125f;
            if (hist != null && p == historyAt) {
                BufferHandle in = (BufferHandle) pickBuffer(r, live).handle();
                BufferHandle cur = mix(g, "p" + p + ".history", r.nextBoolean(), hist.previous(), in, hist.current(), Access.COMPUTE_WRITE,
                        0.5f, 0.25f, c);
                live.add(new Value("history", cur, false));
                continue;
            }
            switch (r.nextInt(7)) {
                case 0, 1 -> {
                    Value a = pickBuffer(r, live), b = pickBuffer(r, live);
                    boolean async = r.nextBoolean();
                    String name = "p" + p + ".mix";
                    BufferHandle out = mix(g, name, async, (BufferHandle) a.handle(), (BufferHandle) b.handle(), null, Access.COMPUTE_WRITE,
                            0.75f, 0.5f, c);
                    live.add(new Value(name, out, false));
                }
                case 2 -> {
                    Value in = pickBuffer(r, live);
                    boolean async = r.nextBoolean();
                    String name = "p" + p + ".toImage";
                    live.add(new Value(name, toImage(g, name, async, (BufferHandle) in.handle(), c), false));
                }
                case 3 -> {
                    Value img = pickImage(r, live);
                    boolean async = r.nextBoolean();
                    String name = "p" + p + ".fromImage";
                    if (img == null) {
                        Value in = pickBuffer(r, live);
                        live.add(new Value(name, mix(g, name, async, (BufferHandle) in.handle(), (BufferHandle) in.handle(), null,
                                Access.COMPUTE_WRITE, 0.5f, 0.5f, c), false));
                    } else {
                        live.add(new Value(name, fromImage(g, name, async, (ImageHandle) img.handle(), c), false));
                    }
                }
                case 4 -> {
                    Value in = pickBuffer(r, live);
                    Value over = r.nextBoolean() ? pickImage(r, live) : null;
                    String name = "p" + p + ".draw";
                    ImageHandle out = draw(g, name, (BufferHandle) in.handle(), over == null ? null : (ImageHandle) over.handle(), c);
                    if (over != null) {
                        live.set(live.indexOf(over), new Value(over.name(), out, false));
                    } else {
                        live.add(new Value(name, out, false));
                    }
                }
                case 5 -> {
                    Value in = pickBuffer(r, live);
                    boolean fill = r.nextBoolean();
                    String name = "p" + p + (fill ? ".fill" : ".copy");
                    live.add(new Value(name, fill ? fill(g, name, frameIndex + p) : copy(g, name, (BufferHandle) in.handle()), false));
                }
                default -> {
                    List<Value> updatable = live.stream().filter(Value::updatable).toList();
                    Value target = updatable.get(r.nextInt(updatable.size()));
                    Value in = pickBuffer(r, live);
                    boolean async = r.nextBoolean();
                    BufferHandle t = (BufferHandle) target.handle();
                    BufferHandle out = mix(g, "p" + p + ".update", async, t, in == target ? null : (BufferHandle) in.handle(), t,
                            Access.COMPUTE_READ_WRITE, 0.5f, 0.25f, c);
                    live.set(live.indexOf(target), new Value(target.name(), out, true));
                }
            }
        }
        for (Value v : live) {
            copies.copy(g, v.name(), v.handle());
        }
    }

    private static Value pickBuffer(Random r, List<Value> live) {
        List<Value> buffers = live.stream().filter(v -> !v.image()).toList();
        return buffers.get(r.nextInt(buffers.size()));
    }

    private static Value pickImage(Random r, List<Value> live) {
        List<Value> images = live.stream().filter(Value::image).toList();
        return images.isEmpty() ? null : images.get(r.nextInt(images.size()));
    }

    /**
     * out = a * in0 + b * in1[shuffled] + c. With {@code target} null the output is a new transient; else
     * {@code target} is written with {@code access} (in place when it is {@code in0}). {@code in1} null: in0 twice.
     */
    private BufferHandle mix(FrameGraph g, String name, boolean async, BufferHandle in0, BufferHandle in1, BufferHandle target, Access access,
                             float a, float b, float c) {
        int writeCount = fault == Fault.HALF_WRITE && target == null ? COUNT / 2 : COUNT;
        boolean inPlace = target != null && target.equals(in0);
        record Io(BufferHandle in0, BufferHandle in1, BufferHandle out) {
        }
        Io io = g.addPass(name, PassKind.COMPUTE, s -> {
            tag(s, async);
            BufferHandle second = in1 == null || in1.equals(in0) ? null : s.read(in1, Access.COMPUTE_READ);
            if (inPlace) {
                BufferHandle out = s.write(in0, access);
                return new Io(out, second == null ? out : second, out);
            }
            BufferHandle first = s.read(in0, Access.COMPUTE_READ);
            BufferHandle out = s.write(target != null ? target : s.create(name, BUFFER), access);
            return new Io(first, second == null ? first : second, out);
        }, (h, ctx) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                // In place with no other input, in1 is the output too: read only the invocation's own element.
                boolean ownElement = inPlace && (in1 == null || in1.equals(in0));
                ByteBuffer push = stack.malloc(GraphCheckKernels.MIX_PUSH).putInt(0, COUNT).putInt(4, writeCount).putInt(8, ownElement ? 1 : 7)
                        .putInt(12, ownElement ? 0 : 1).putFloat(16, a).putFloat(20, b).putFloat(24, c);
                kernels.mix.dispatch(ctx.cmd(), List.of(range(ctx.buffer(h.in0())), range(ctx.buffer(h.in1())), range(ctx.buffer(h.out()))),
                        push, COUNT / 64, 1);
            }
        });
        return io.out();
    }

    private ImageHandle toImage(FrameGraph g, String name, boolean async, BufferHandle in, float c) {
        record Io(BufferHandle in, ImageHandle out) {
        }
        return g.addPass(name, PassKind.COMPUTE, s -> {
            tag(s, async);
            return new Io(s.read(in, Access.COMPUTE_READ), s.write(s.create(name, IMAGE), Access.COMPUTE_WRITE));
        }, (h, ctx) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ByteBuffer push = stack.malloc(GraphCheckKernels.IMAGE_PUSH).putInt(0, COUNT).putInt(4, SIDE).putInt(8, SIDE).putFloat(12, 0.5f)
                        .putFloat(16, c);
                kernels.toImage.dispatch(ctx.cmd(), List.of(range(ctx.buffer(h.in())), DescriptorSets.StorageImage.of(ctx.image(h.out()))), push,
                        SIDE / 8, SIDE / 8);
            }
        }).out();
    }

    private BufferHandle fromImage(FrameGraph g, String name, boolean async, ImageHandle in, float c) {
        record Io(ImageHandle in, BufferHandle out) {
        }
        return g.addPass(name, PassKind.COMPUTE, s -> {
            tag(s, async);
            return new Io(s.read(in, Access.COMPUTE_READ), s.write(s.create(name, BUFFER), Access.COMPUTE_WRITE));
        }, (h, ctx) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ByteBuffer push = stack.malloc(GraphCheckKernels.IMAGE_PUSH).putInt(0, COUNT).putInt(4, SIDE).putInt(8, SIDE).putFloat(12, 0.25f)
                        .putFloat(16, c);
                kernels.fromImage.dispatch(ctx.cmd(), List.of(DescriptorSets.StorageImage.of(ctx.image(h.in())), range(ctx.buffer(h.out()))), push,
                        COUNT / 64, 1);
            }
        }).out();
    }

    /** A fullscreen draw into a new cleared image, or over the top half of {@code over} (loaded: the bottom half keeps what it held). */
    private ImageHandle draw(FrameGraph g, String name, BufferHandle in, ImageHandle over, float c) {
        record Io(BufferHandle in, ImageHandle out) {
        }
        return g.addPass(name, PassKind.GRAPHICS, s -> new Io(s.read(in, Access.GRAPHICS_READ),
                s.colorAttachment(over != null ? over : s.create(name, IMAGE), over != null ? null : new float[]{0.25f, 0.5f, 0.75f, 1})), (h, ctx) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ByteBuffer push = stack.malloc(GraphCheckKernels.DRAW_PUSH).putInt(0, COUNT).putFloat(4, 0.5f).putFloat(8, c);
                kernels.draw.draw(ctx.cmd(), List.of(range(ctx.buffer(h.in()))), push, ctx.width(), over != null ? ctx.height() / 2 : ctx.height(), 3);
            }
        }).out();
    }

    private static BufferHandle fill(FrameGraph g, String name, int word) {
        return g.addPass(name, PassKind.TRANSFER, s -> s.write(s.create(name, BUFFER), Access.TRANSFER_DST),
                (h, ctx) -> vkCmdFillBuffer(ctx.cmd(), ctx.buffer(h).handle(), 0, VK_WHOLE_SIZE, Float.floatToIntBits(word * 0.5f)));
    }

    private static BufferHandle copy(FrameGraph g, String name, BufferHandle in) {
        record Io(BufferHandle in, BufferHandle out) {
        }
        return g.addPass(name, PassKind.TRANSFER, s -> new Io(s.read(in, Access.TRANSFER_SRC), s.write(s.create(name, BUFFER), Access.TRANSFER_DST)),
                (h, ctx) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        vkCmdCopyBuffer(ctx.cmd(), ctx.buffer(h.in()).handle(), ctx.buffer(h.out()).handle(), VkBufferCopy.calloc(1, stack).size(BUFFER.size()));
                    }
                }).out();
    }

    private static void tag(PassBuilder s, boolean async) {
        if (async) {
            s.asyncCompute();
        }
    }

    private static DescriptorSets.Binding range(dev.tally.vk.GpuBuffer b) {
        return DescriptorSets.Range.of(b, 0, BUFFER.size());
    }
}

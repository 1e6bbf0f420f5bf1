package dev.tally.internal.graph;

import dev.tally.shader.BindingType;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.internal.engine.Engine;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.internal.vk.Waits;
import dev.tally.reduce.NormalizeNode;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.GraphicsPipeline;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A frame graph of compute, graphics and transfer passes with aliased transients, a history buffer and
 * a culled pass, run for 100 frames with 2 and 3 frames in flight and no idle waits (frames overlap on
 * the GPU), under synchronization validation. Every frame's results come back through the readback
 * ring and are checked against values computed here.
 */
class FrameGraphGpuTest {
    private static final int SIDE = 32;
    private static final int FRAMES = 100;

    @ParameterizedTest(name = "{0} floats, {1} frames in flight")
    @CsvSource({"4096, 2", "4096, 3", "8388608, 2"})
    void overlappingFramesRunCleanAndCorrect(int count, int framesInFlight) {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "frames.inFlight=" + framesInFlight,
                "readback.slots=" + (framesInFlight + 1))))) {
            var ctx = Engine.of(tally).context();
            GraphRuntime graphs = Engine.of(tally).graphs();
            double[] expectedTotal = new double[FRAMES];
            double[] expectedRunning = new double[FRAMES];
            float[] expectedNormalized = new float[FRAMES];
            int[] expectedRed = new int[FRAMES];
            long checked = 0;
            try (FrameCommands commands = tally.frameCommands();
                 ComputeKernel fill = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_fill.comp", Map.of(), null, 1, 12);
                 ComputeKernel accumulate = new ComputeKernel(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_accumulate.comp", Map.of(), null, 3, 0);
                 GraphicsPipeline draw = new GraphicsPipeline(ctx, Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_draw.vert", "test_draw.frag",
                         Map.of(), VK_FORMAT_R8G8B8A8_UNORM, false, List.of(dev.tally.shader.BindingType.STORAGE_BUFFER), 4);
                 ReduceNode reduce = tally.reduceNode("reduce", ReduceOp.SUM, count);
                 NormalizeNode normalize = tally.normalizeNode();
                 ReadbackRing ring = tally.readback("results", 16)) {
                HistoryBuffer running = graphs.history("running", BufferDesc.of(16), 0);
                double runningSum = 0;
                long objectsAfterWarmup = -1;
                long waitsBefore = ctx.waits().total().count() - ctx.waits().of(Waits.Cause.PACING).count();
                for (int f = 0; f < FRAMES; f++) {
                    Frame frame = tally.beginFrame();
                    Sample sample = ring.latest().orElse(null);
                    if (sample != null && sample.deliveredAtFrame() == f) {
                        int at = (int) sample.frame();
                        assertEquals(f - ring.slotCount(), at, "the sample is exactly N frames late");
                        assertEquals(expectedTotal[at], sample.floatAt(0), expectedTotal[at] * 1e-6, "frame " + at + " total");
                        assertEquals(expectedRunning[at], sample.floatAt(1), expectedRunning[at] * 1e-5, "frame " + at + " running sum (history)");
                        assertEquals(expectedNormalized[at], sample.floatAt(2), 1e-6 * expectedNormalized[at] + 1e-12, "frame " + at + " normalized[0]");
                        assertEquals(expectedRed[at], sample.intAt(3) & 0xff, 1, "frame " + at + " drawn pixel");
                        checked++;
                    }
                    float a = f % 7, b = 1f;
                    double total = 0;
                    for (int i = 0; i < count; i++) {
                        total += a + (i % 3) * b;
                    }
                    runningSum += total;
                    float scale = (float) (total / Math.max(1, a) / 4);
                    expectedTotal[f] = total;
                    expectedRunning[f] = runningSum;
                    expectedNormalized[f] = (float) (a / total);
                    expectedRed[f] = Math.round(255 * Math.min(1f, Math.max(0f, (float) (a / total) * scale)));

                    var cmd = commands.begin(frame);
                    GraphDeclaration g = GraphDeclaration.of(frame.graph());
                    BufferHandle values = g.addPass("fill", PassKind.COMPUTE,
                            s -> s.write(s.create("values", BufferDesc.of(4L * count)), Access.COMPUTE_WRITE),
                            (h, c) -> {
                                try (MemoryStack stack = MemoryStack.stackPush()) {
                                    fill.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 4L * count)),
                                            stack.malloc(12).putInt(0, count).putFloat(4, a).putFloat(8, b), 64, 1);
                                }
                            });
                    BufferHandle sum = reduce.add(g, values, count);
                    BufferHandle normalized = normalize.add(g, "normalize", values, sum, count);
                    // A pass whose output nobody reads: culled.
                    g.addPass("unused", PassKind.COMPUTE, s -> s.write(s.create("ignored", BufferDesc.of(64)), Access.COMPUTE_WRITE),
                            (h, c) -> fail("a culled pass must not record"));
                    record Copy(BufferHandle src, BufferHandle dst) {
                    }
                    Copy copy = g.addPass("copy", PassKind.TRANSFER, s -> new Copy(s.read(normalized, Access.TRANSFER_SRC),
                            s.write(s.create("copied", BufferDesc.of(4L * count)), Access.TRANSFER_DST)), (h, c) -> {
                        try (MemoryStack stack = MemoryStack.stackPush()) {
                            vkCmdCopyBuffer(c.cmd(), c.buffer(h.src()).handle(), c.buffer(h.dst()).handle(),
                                    VkBufferCopy.calloc(1, stack).size(4L * count));
                        }
                    });
                    record Draw(BufferHandle values, ImageHandle target) {
                    }
                    Draw drawn = g.addPass("draw", PassKind.GRAPHICS, s -> new Draw(s.read(copy.dst(), Access.GRAPHICS_READ),
                            s.colorAttachment(s.create("image", ImageDesc.of(SIDE, SIDE, VK_FORMAT_R8G8B8A8_UNORM)), new float[]{0, 0, 0, 1})),
                            (h, c) -> {
                                try (MemoryStack stack = MemoryStack.stackPush()) {
                                    draw.draw(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h.values()), 0, 4L * count)),
                                            stack.malloc(4).putFloat(0, scale), c.width(), c.height(), 3);
                                }
                            });
                    record Pixels(ImageHandle image, BufferHandle out) {
                    }
                    Pixels pixels = g.addPass("readimage", PassKind.TRANSFER, s -> new Pixels(s.read(drawn.target(), Access.TRANSFER_SRC),
                            s.write(s.create("pixels", BufferDesc.of(4L * SIDE * SIDE)), Access.TRANSFER_DST)), (h, c) -> {
                        try (MemoryStack stack = MemoryStack.stackPush()) {
                            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                            region.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                            region.imageExtent().set(SIDE, SIDE, 1);
                            vkCmdCopyImageToBuffer(c.cmd(), c.image(h.image()).handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                    c.buffer(h.out()).handle(), region);
                        }
                    });
                    GraphDeclaration.History hist = g.history(running);
                    record Acc(BufferHandle prev, BufferHandle total, BufferHandle out) {
                    }
                    Acc acc = g.addPass("accumulate", PassKind.COMPUTE, s -> new Acc(s.read(hist.previous(), Access.COMPUTE_READ),
                            s.read(sum, Access.COMPUTE_READ), s.write(hist.current(), Access.COMPUTE_WRITE)), (h, c) ->
                            accumulate.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h.prev()), 0, 4),
                                    DescriptorSets.Range.of(c.buffer(h.total()), 0, 4), DescriptorSets.Range.of(c.buffer(h.out()), 0, 4)), null, 1, 1));
                    ring.capture(g, List.of(ReadbackRing.Region.of(sum, 4), ReadbackRing.Region.of(acc.out(), 4),
                            ReadbackRing.Region.of(copy.dst(), 4), ReadbackRing.Region.of(pixels.out(), 4)));
                    frame.record(cmd);
                    commands.end(cmd);
                    frame.submit(cmd);
                    if (f == 10) {
                        objectsAfterWarmup = graphs.transientObjectsCreated();
                    }
                }
                assertEquals(FRAMES - ring.slotCount(), checked, "every due sample was delivered and checked");
                assertEquals(waitsBefore, ctx.waits().total().count() - ctx.waits().of(Waits.Cause.PACING).count(),
                        "no wait but frame pacing on the frame path");
                assertTrue(graphs.stats().passes().get("unused"), "the unused pass is culled");
                assertEquals(1, graphs.compiles(), "one compile for 100 frames of the same topology");
                assertEquals(objectsAfterWarmup, graphs.transientObjectsCreated(), "no transient objects created in steady state");
                assertTrue(graphs.lastBytesSaved() > 0, "transients alias");
                assertTrue(graphs.toDot().contains("unused") && graphs.toDot().contains("culled"));
                ctx.waitIdle();
                graphs.collectTimings();
                assertTrue(graphs.stats().samples("draw") > 0, "per-pass timestamps arrive");
            }
            ctx.waitIdle();
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }
}

package dev.tally.graph;

import dev.tally.GpuTestBase;
import dev.tally.reduce.NormalizeNode;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.GraphicsPipeline;
import dev.tally.vk.FrameLoop;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
 * a culled pass, run for 100 frames under synchronization validation, checking every frame's results.
 */
class FrameGraphGpuTest extends GpuTestBase {
    private static final int SIDE = 32;

    @ParameterizedTest
    @ValueSource(ints = {4096, 1 << 23})
    void mixedGraphRunsHundredFramesCleanAndCorrect(int count) {
        var ctx = runtime.context();
        try (GraphRuntime graphs = new GraphRuntime(ctx);
             FrameLoop frames = new FrameLoop(ctx);
             ComputeKernel fill = new ComputeKernel(ctx, runtime.compiler(), runtime.pipelineCache(), "test_fill.comp", Map.of(), null, 1, 12);
             ComputeKernel accumulate = new ComputeKernel(ctx, runtime.compiler(), runtime.pipelineCache(), "test_accumulate.comp", Map.of(), null, 3, 0);
             GraphicsPipeline draw = new GraphicsPipeline(ctx, runtime.compiler(), runtime.pipelineCache(), "test_draw.vert", "test_draw.frag",
                     Map.of(), VK_FORMAT_R8G8B8A8_UNORM, false, List.of(dev.tally.shader.BindingType.STORAGE_BUFFER), 4);
             ReduceNode reduce = new ReduceNode(ctx, runtime.reducer(), "reduce", ReduceOp.SUM, count);
             NormalizeNode normalize = new NormalizeNode(ctx, runtime.compiler(), runtime.pipelineCache());
             GpuBuffer host = new GpuBuffer(ctx, "test.readback", 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK)) {
            HistoryBuffer running = graphs.history("running", BufferDesc.of(16), 0);
            double expectedRunning = 0;
            long objectsAfterWarmup = -1;
            for (int f = 0; f < 100; f++) {
                float a = f % 7, b = 1f;
                double total = 0;
                for (int i = 0; i < count; i++) {
                    total += a + (i % 3) * b;
                }
                expectedRunning += total;

                FrameGraph g = graphs.begin();
                BufferHandle readback = g.importBuffer("readback", host, Access.HOST_READ);
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
                float scale = (float) (total / Math.max(1, a + 0) / 4);
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
                FrameGraph.History hist = g.history(running);
                record Acc(BufferHandle prev, BufferHandle total, BufferHandle out) {
                }
                Acc acc = g.addPass("accumulate", PassKind.COMPUTE, s -> new Acc(s.read(hist.previous(), Access.COMPUTE_READ),
                        s.read(sum, Access.COMPUTE_READ), s.write(hist.current(), Access.COMPUTE_WRITE)), (h, c) ->
                        accumulate.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h.prev()), 0, 4),
                                DescriptorSets.Range.of(c.buffer(h.total()), 0, 4), DescriptorSets.Range.of(c.buffer(h.out()), 0, 4)), null, 1, 1));
                record Out(BufferHandle total, BufferHandle running, BufferHandle normalized, BufferHandle pixels, BufferHandle dst) {
                }
                g.addPass("readback", PassKind.TRANSFER, s -> {
                    s.sideEffect();
                    return new Out(s.read(sum, Access.TRANSFER_SRC), s.read(acc.out(), Access.TRANSFER_SRC),
                            s.read(copy.dst(), Access.TRANSFER_SRC), s.read(pixels.out(), Access.TRANSFER_SRC),
                            s.write(readback, Access.TRANSFER_DST));
                }, (h, c) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        long dst = c.buffer(h.dst()).handle();
                        vkCmdCopyBuffer(c.cmd(), c.buffer(h.total()).handle(), dst, VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(0).size(4));
                        vkCmdCopyBuffer(c.cmd(), c.buffer(h.running()).handle(), dst, VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(4).size(4));
                        vkCmdCopyBuffer(c.cmd(), c.buffer(h.normalized()).handle(), dst, VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(8).size(4));
                        vkCmdCopyBuffer(c.cmd(), c.buffer(h.pixels()).handle(), dst, VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(12).size(4));
                    }
                });
                var recorded = graphs.record(g, frames.begin());
                graphs.submitted(recorded, frames.submit());
                ctx.waitIdle(); // the test reads every frame; a renderer would use the readback ring

                host.invalidate(0, 16);
                long p = host.mappedAddress();
                assertEquals(total, MemoryUtil.memGetFloat(p), total * 1e-6, "frame " + f + " total");
                assertEquals(expectedRunning, MemoryUtil.memGetFloat(p + 4), expectedRunning * 1e-5, "frame " + f + " running sum (history)");
                assertEquals(a / total, MemoryUtil.memGetFloat(p + 8), 1e-6 * a / total + 1e-12, "frame " + f + " normalized[0]");
                int red = MemoryUtil.memGetByte(p + 12) & 0xff;
                int expectRed = Math.round(255 * Math.min(1f, Math.max(0f, (float) (a / total) * scale)));
                assertEquals(expectRed, red, 1, "frame " + f + " drawn pixel");
                if (f == 10) {
                    objectsAfterWarmup = graphs.transientObjectsCreated();
                }
            }
            GraphPlan plan = graphs.lastPlanForTests();
            assertTrue(graphs.stats().passes().get("unused"), "the unused pass is culled");
            assertEquals(1, graphs.compiles(), "one compile for 100 frames of the same topology");
            assertEquals(objectsAfterWarmup, graphs.transientObjectsCreated(), "no transient objects created in steady state");
            assertTrue(graphs.lastBytesSaved() > 0, "transients alias: " + plan.slots());
            assertTrue(graphs.stats().samples("draw") > 0, "per-pass timestamps arrive");
            assertTrue(graphs.toDot().contains("unused") && graphs.toDot().contains("culled"));
        }
    }
}

package dev.tally;

import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.reduce.ReduceStats;
import dev.tally.reduce.StatsNode;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * {@code Tally.statsNode} on the public API: count, sum, min, max, mean and variance of a buffer in one node whose
 * record stays on the GPU, checked against the same values summed in float64 here, in one dispatch and (with
 * {@code reduce.singleDispatchMax} lowered) in two passes, frame after frame with the same node; its record's offsets
 * are the ones {@link ReduceStats} names. Lavapipe, validation and synchronization validation on.
 */
class StatsNodeTest {
    private static final int N = 50_000;

    /** Values with a large common offset, so that a naive single-pass variance would lose them. */
    private static float[] values() {
        SplittableRandom r = new SplittableRandom(11);
        float[] v = new float[N];
        for (int i = 0; i < N; i++) {
            v[i] = 1000f + (float) r.nextGaussian() * 3f;
        }
        v[N / 3] = -5f;      // the minimum, far below the rest
        v[2 * N / 3] = 2500f;   // the maximum
        return v;
    }

    @Test
    void oneDispatch() {
        check(List.of());
    }

    @Test
    void twoPasses() {
        check(List.of("reduce.singleDispatchMax=1024"));
    }

    private static void check(List<String> overrides) {
        float[] v = values();
        double sum = 0;
        for (float x : v) {
            sum += x;
        }
        double mean = sum / N, m2 = 0;
        for (float x : v) {
            m2 += (x - mean) * (x - mean);
        }
        java.util.List<String> all = new java.util.ArrayList<>(List.of("validation.enabled=true"));
        all.addAll(overrides);
        try (Tally tally = Tally.open(Config.load(null, all), List.of());
             GpuBuffer input = tally.createBuffer("values", 4L * N, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD);
             GpuBuffer out = tally.createBuffer("stats.out", ReduceStats.RECORD_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
             StatsNode stats = tally.statsNode("stats", N);
             FrameCommands commands = tally.frameCommands()) {
            ByteBuffer data = MemoryUtil.memAlloc(4 * N).order(ByteOrder.LITTLE_ENDIAN);
            try {
                data.asFloatBuffer().put(v);
                input.write(data, 0);
            } finally {
                MemoryUtil.memFree(data);
            }
            for (int frameIndex = 0; frameIndex < 3; frameIndex++) {
                Frame frame = tally.beginFrame();
                FrameGraph g = frame.graph();
                BufferHandle record = stats.add(g, g.importBuffer("values", input, null), N);
                BufferHandle target = g.importBuffer("stats.out", out, Access.HOST_READ);
                g.addPass("copy.out", PassKind.TRANSFER, b -> new BufferHandle[]{b.read(record, Access.TRANSFER_SRC), b.write(target, Access.TRANSFER_DST)},
                        (h, c) -> {
                            try (MemoryStack stack = MemoryStack.stackPush()) {
                                vkCmdCopyBuffer(c.cmd(), c.buffer(h[0]).handle(), c.buffer(h[1]).handle(),
                                        VkBufferCopy.calloc(1, stack).size(ReduceStats.RECORD_BYTES));
                            }
                        });
                VkCommandBuffer cmd = commands.begin(frame);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
                tally.device().waitIdle();
                out.invalidate(0, ReduceStats.RECORD_BYTES);
                ReduceStats s = ReduceStats.read(MemoryUtil.memByteBuffer(out.mappedAddress(), ReduceStats.RECORD_BYTES));
                String at = "frame " + frameIndex + " " + overrides + ": " + s;
                assertEquals(N, s.count(), at);
                assertEquals(sum, s.sum(), 1e-6 * Math.abs(sum), at);
                assertEquals(-5f, s.min(), at);
                assertEquals(2500f, s.max(), at);
                assertEquals(mean, s.mean(), 1e-6 * Math.abs(mean), at);
                assertEquals(m2 / N, s.variance(), 1e-5 * (m2 / N), at);
                // The offsets a shader binding the record would use.
                long a = out.mappedAddress();
                assertEquals(s.mean(), MemoryUtil.memGetFloat(a + ReduceStats.MEAN_OFFSET), at);
                assertEquals(s.max(), MemoryUtil.memGetFloat(a + ReduceStats.MAX_OFFSET), at);
            }
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }

    @Test
    void aCountPastTheNodeOrTheBufferIsRefusedNamingTheNode() {
        try (Tally tally = Tally.open(Config.load(null, List.of()), List.of());
             GpuBuffer input = tally.createBuffer("values", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
             StatsNode stats = tally.statsNode("stats", 100)) {
            Frame frame = tally.beginFrame();
            BufferHandle in = frame.graph().importBuffer("values", input, null);
            assertEquals("statistics node 'stats' was built for at most 100 floats, got 101",
                    assertThrows(IllegalArgumentException.class, () -> stats.add(frame.graph(), in, 101)).getMessage());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> stats.add(frame.graph(), in, 17)).getMessage()
                    .startsWith("statistics node 'stats': count 17 exceeds buffer 'values', which holds 16 floats"));
            assertEquals("statsNode 'zero': maxCount 0; a node reads at least 1 float",
                    assertThrows(IllegalArgumentException.class, () -> tally.statsNode("zero", 0)).getMessage());
            frame.abandon();
        }
    }
}

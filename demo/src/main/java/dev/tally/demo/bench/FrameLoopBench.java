package dev.tally.demo.bench;

import dev.tally.TallyRuntime;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.readback.ReadbackRing;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.vk.FrameLoop;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * A GPU-bound frame loop (each frame reduces a large array several times) with a little CPU work,
 * reading the total back either synchronously (copy, wait, read in the same frame) or through the
 * readback ring (the value from N frames ago, no wait). Reports frames per second and the CPU time
 * blocked per frame for each mode.
 */
public final class FrameLoopBench {
    /** One mode's result. {@code blockedMicrosPerFrame}: CPU time spent waiting for the GPU, per frame. */
    public record Result(String mode, double fps, double blockedMicrosPerFrame, double readbackWaitMicrosPerFrame, long frames) {
    }

    private FrameLoopBench() {
    }

    public static List<Result> run(TallyRuntime rt, long n, int reductionsPerFrame, int frames, double cpuWorkMicros, PrintStream progress) {
        VulkanContext ctx = rt.context();
        try (GpuBuffer data = new GpuBuffer(ctx, "loop.data", 4 * n, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.DEVICE)) {
            ctx.submitAndWait(cmd -> vkCmdFillBuffer(cmd, data.handle(), 0, data.size(), Float.floatToRawIntBits(1f)));
            Result sync = loop(rt, data, n, reductionsPerFrame, frames, cpuWorkMicros, true);
            progress.printf(Locale.ROOT, "  frame loop, synchronous readback: %.1f fps, %.1f us blocked per frame%n", sync.fps(), sync.blockedMicrosPerFrame());
            Result ring = loop(rt, data, n, reductionsPerFrame, frames, cpuWorkMicros, false);
            progress.printf(Locale.ROOT, "  frame loop, readback ring:        %.1f fps, %.1f us blocked per frame (ring waits: %.1f us)%n", ring.fps(),
                    ring.blockedMicrosPerFrame(), ring.readbackWaitMicrosPerFrame());
            return List.of(sync, ring);
        }
    }

    private static Result loop(TallyRuntime rt, GpuBuffer data, long n, int reductions, int frames, double cpuWorkMicros, boolean synchronous) {
        VulkanContext ctx = rt.context();
        ReduceNode[] nodes = new ReduceNode[reductions];
        try (GraphRuntime graphs = new GraphRuntime(ctx); FrameLoop loop = new FrameLoop(ctx);
             ReadbackRing ring = new ReadbackRing(ctx, "readback", rt.config().integer("readback.slots"), 16)) {
            for (int i = 0; i < reductions; i++) {
                nodes[i] = new ReduceNode(ctx, rt.reducer(), "reduce" + i, ReduceOp.SUM, n);
            }
            int warmup = Math.min(20, frames / 4);
            long blocked = 0, ringWait = 0, start = 0;
            float sink = 0;
            for (int f = 0; f < frames + warmup; f++) {
                if (f == warmup) {
                    ctx.waitIdle();
                    blocked = 0;
                    ringWait = 0;
                    start = System.nanoTime();
                }
                long t0 = System.nanoTime();
                var cmd = loop.begin();
                blocked += System.nanoTime() - t0;
                ring.beginFrame(f);
                FrameGraph g = graphs.begin();
                BufferHandle input = g.importBuffer("data", data, null);
                BufferHandle total = null;
                for (ReduceNode node : nodes) {
                    total = node.add(g, input, n);
                }
                ring.capture(g, List.of(new ReadbackRing.Region(total, 0, 4)), 1, 1);
                var recorded = graphs.record(g, cmd);
                long value = loop.submit();
                graphs.submitted(recorded, value);
                ring.submitted(value);
                if (synchronous) {
                    long w0 = System.nanoTime();
                    sink += ring.readNowBlocking(value).floatAt(0);
                    long waited = System.nanoTime() - w0;
                    blocked += waited;
                    ringWait += waited;
                } else {
                    sink += ring.latest().map(s -> s.floatAt(0)).orElse(0f);
                }
                spin(cpuWorkMicros);   // the rest of the game's frame: simulation, culling...
            }
            ctx.waitIdle();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (sink < 0) {
                throw new IllegalStateException("impossible total");
            }
            return new Result(synchronous ? "synchronous" : "ring", frames / seconds, blocked / 1e3 / frames, ringWait / 1e3 / frames, frames);
        } finally {
            for (ReduceNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }

    private static void spin(double micros) {
        long end = System.nanoTime() + (long) (micros * 1000);
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}

package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.internal.vk.Waits;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.readback.ReadbackRing;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;

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

    public static List<Result> run(Tally rt, long n, int reductionsPerFrame, int frames, double cpuWorkMicros, PrintStream progress) {
        VulkanContext ctx = Engine.of(rt).context();
        try (TrackedBuffer data = new TrackedBuffer(ctx, "loop.data", 4 * n, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
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

    private static Result loop(Tally rt, TrackedBuffer data, long n, int reductions, int frames, double cpuWorkMicros, boolean synchronous) {
        VulkanContext ctx = Engine.of(rt).context();
        ReduceNode[] nodes = new ReduceNode[reductions];
        try (FrameCommands commands = rt.frameCommands();
             ReadbackRing ring = rt.readback("bench/readback", 16, synchronous ? ReadbackRing.Mode.SYNC : ReadbackRing.Mode.FIXED)) {
            for (int i = 0; i < reductions; i++) {
                nodes[i] = rt.reduceNode("bench/reduce" + i, ReduceOp.SUM, n);
            }
            int warmup = Math.min(20, frames / 4);
            double blockedStart = 0, ringWaitStart = 0;
            long start = 0;
            float sink = 0;
            for (int f = 0; f < frames + warmup; f++) {
                if (f == warmup) {
                    ctx.waitIdle();
                    blockedStart = ctx.waits().of(Waits.Cause.PACING).micros() + ctx.waits().of(Waits.Cause.READBACK).micros();
                    ringWaitStart = ctx.waits().of(Waits.Cause.READBACK).micros();
                    start = System.nanoTime();
                }
                Frame frame = rt.beginFrame();   // a synchronous ring waits here for the last frame's value
                var cmd = commands.begin(frame);
                FrameGraph g = frame.graph();
                BufferHandle input = g.importBuffer("data", data, null);
                BufferHandle total = null;
                for (ReduceNode node : nodes) {
                    total = node.add(g, input, n);
                }
                ring.capture(g, total);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
                sink += ring.latest().map(s -> s.floatAt(0)).orElse(0f);
                spin(cpuWorkMicros);   // the rest of the game's frame: simulation, culling...
            }
            ctx.waitIdle();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (sink < 0) {
                throw new IllegalStateException("impossible total");
            }
            double blocked = ctx.waits().of(Waits.Cause.PACING).micros() + ctx.waits().of(Waits.Cause.READBACK).micros() - blockedStart;
            double ringWait = ctx.waits().of(Waits.Cause.READBACK).micros() - ringWaitStart;
            return new Result(synchronous ? "synchronous" : "ring", frames / seconds, blocked / frames, ringWait / frames, frames);
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

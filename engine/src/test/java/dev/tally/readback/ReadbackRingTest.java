package dev.tally.readback;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.PassKind;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import dev.tally.vk.FrameLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.system.MemoryStack;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The ring on lavapipe with synchronization validation: every sample is the frame it claims, N late, never waited for. */
class ReadbackRingTest {

    private static Tally open(int framesInFlight) {
        // readback.slots only has to satisfy the runtime's own check; each test builds its ring explicitly.
        return Tally.open(Config.load(null, List.of("validation.enabled=true", "frames.inFlight=" + framesInFlight,
                "readback.slots=" + (framesInFlight + 1))), List.of());
    }

    @ParameterizedTest(name = "{0} slots, {1} frames in flight")
    @CsvSource({"3, 2", "2, 1", "4, 1", "4, 2"})
    void everySampleIsTheFrameItClaimsExactlyNLateWithoutWaiting(int slots, int framesInFlight) {
        int frames = 200;
        try (Tally rt = open(framesInFlight)) {
            var ctx = rt.context();
            try (GraphRuntime graphs = new GraphRuntime(ctx);
                 FrameLoop loop = new FrameLoop(ctx);
                 ComputeKernel writer = new ComputeKernel(ctx, rt.compiler(), rt.pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12);
                 ReadbackRing ring = new ReadbackRing(ctx, "readback", slots, 64)) {
                long delivered = 0;
                long lastSeen = -1;
                for (int f = 0; f < frames; f++) {
                    // A resize in the middle: the source's extent changes, samples keep their own.
                    int width = f < frames / 2 ? 64 : 33;
                    int height = f < frames / 2 ? 48 : 17;
                    ring.beginFrame(f);
                    var latest = ring.latest();
                    if (f < slots) {
                        assertTrue(latest.isEmpty(), "frame " + f + ": nothing before the first slot comes due");
                    } else {
                        Sample s = latest.orElseThrow(() -> new AssertionError("no sample at frame " + ring));
                        assertEquals(f - slots, s.frame(), "sample frame");
                        assertEquals(slots, s.lag(), "lag");
                        assertEquals((int) s.frame(), s.intAt(0), "the sample holds the frame it claims");
                        assertEquals(2 * (int) s.frame() + 1, s.intAt(1));
                        assertEquals(s.width(), s.intAt(2), "metadata extent matches the data's");
                        assertEquals(s.height(), s.intAt(3));
                        assertEquals(s.frame() < frames / 2 ? 64 : 33, s.width());
                        assertTrue(s.frame() > lastSeen);
                        lastSeen = s.frame();
                        delivered++;
                    }
                    int frame = f;
                    FrameGraph g = graphs.begin();
                    BufferHandle source = g.addPass("write", PassKind.COMPUTE,
                            b -> b.write(b.create("stats", BufferDesc.of(16)), Access.COMPUTE_WRITE), (h, c) -> {
                                try (MemoryStack stack = MemoryStack.stackPush()) {
                                    writer.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 16)),
                                            stack.malloc(12).putInt(0, frame).putInt(4, width).putInt(8, height), 1, 1);
                                }
                            });
                    ring.capture(g, List.of(new ReadbackRing.Region(source, 0, 16)), width, height);
                    var recorded = graphs.record(g, loop.begin());
                    long value = loop.submit();
                    graphs.submitted(recorded, value);
                    ring.submitted(value);
                }
                ReadbackStats stats = ring.stats();
                assertEquals(frames - slots, stats.samples());
                assertEquals(frames - slots, delivered);
                assertEquals(slots, stats.lagFrames());
                assertEquals(0, stats.notReady(), "a due slot was not ready");
                assertEquals(0, stats.blockingWaits(), "the ring waited");
                ring.drain(); // shutdown with slots pending: the explicit, counted wait
            }
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @ParameterizedTest(name = "{0} slots, {1} frames in flight")
    @CsvSource({"2, 2", "1, 1", "3, 4"})
    void slotsMustExceedFramesInFlight(int slots, int framesInFlight) {
        try (Tally rt = open(framesInFlight)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ReadbackRing(rt.context(), "readback", slots, 16));
            assertTrue(e.getMessage().contains("frames in flight"), e.getMessage());
        }
    }

    @Test
    void closingWithPendingSlotsLeaksNothing() {
        dev.tally.vk.ValidationLog log;
        try (Tally rt = open(2)) {
            var ctx = rt.context();
            log = ctx.validationLog();
            try (GraphRuntime graphs = new GraphRuntime(ctx); FrameLoop loop = new FrameLoop(ctx)) {
                ReadbackRing ring = new ReadbackRing(ctx, "readback", 3, 16);
                for (int f = 0; f < 2; f++) {
                    ring.beginFrame(f);
                    FrameGraph g = graphs.begin();
                    BufferHandle src = g.addPass("clear", PassKind.TRANSFER, b -> b.write(b.create("src", BufferDesc.of(16)), Access.TRANSFER_DST),
                            (h, c) -> org.lwjgl.vulkan.VK10.vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, 16, 7));
                    ring.capture(g, List.of(new ReadbackRing.Region(src, 0, 16)), 1, 1);
                    var recorded = graphs.record(g, loop.begin());
                    long v = loop.submit();
                    graphs.submitted(recorded, v);
                    ring.submitted(v);
                }
                ring.close(); // slots still pending on the GPU: destruction is deferred, not immediate
            }
        }
        // Closing the context reports live VMA allocations and leaked Vulkan objects as errors.
        assertEquals(0, log.total(), () -> log.messages().toString());
    }
}

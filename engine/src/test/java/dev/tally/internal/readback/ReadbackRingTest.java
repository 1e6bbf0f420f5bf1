package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.internal.engine.Engine;

import dev.tally.readback.ReadbackStats;

import dev.tally.readback.Sample;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.vk.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lwjgl.system.MemoryStack;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The ring on lavapipe with synchronization validation: every sample is the frame it claims, N late, never waited for. */
class ReadbackRingTest {

    private static Tally open(int framesInFlight, int slots) {
        return Tally.open(Config.load(null, List.of("validation.enabled=true", "frames.inFlight=" + framesInFlight,
                "readback.slots=" + slots)));
    }

    /** One frame: a compute pass writes (frame, 2 frame + 1, width, height), the ring captures it. */
    private static void frame(Tally rt, FrameCommands commands, ComputeKernel writer, ReadbackRing ring, int width, int height) {
        Frame frame = rt.beginFrame();
        var cmd = commands.begin(frame);
        FrameGraph g = frame.graph();
        int f = (int) frame.number();
        BufferHandle source = g.addPass("write", PassKind.COMPUTE,
                b -> b.write(b.create("stats", BufferDesc.of(16)), Access.COMPUTE_WRITE), (h, c) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        writer.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 16)),
                                stack.malloc(12).putInt(0, f).putInt(4, width).putInt(8, height), 1, 1);
                    }
                });
        ring.capture(g, source);
        frame.record(cmd);
        commands.end(cmd);
        frame.submit(cmd);
    }

    @ParameterizedTest(name = "{0} slots, {1} frames in flight")
    @CsvSource({"3, 2", "2, 1", "4, 1", "4, 2", "4, 3"})
    void everySampleIsTheFrameItClaimsExactlyNLateWithoutWaiting(int slots, int framesInFlight) {
        int frames = 200;
        try (Tally rt = open(framesInFlight, slots)) {
            var ctx = Engine.of(rt).context();
            try (FrameCommands commands = rt.frameCommands();
                 ComputeKernel writer = new ComputeKernel(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12);
                 ReadbackRing ring = rt.readback("readback", 64)) {
                long delivered = 0;
                long lastSeen = -1;
                for (int f = 0; f < frames; f++) {
                    // A resize in the middle: the extent travels with the data, so a sample can never be mislabelled.
                    int width = f < frames / 2 ? 64 : 33;
                    int height = f < frames / 2 ? 48 : 17;
                    frame(rt, commands, writer, ring, width, height);
                    var latest = ring.latest();
                    if (f < slots) {
                        assertTrue(latest.isEmpty(), "frame " + f + ": nothing before the first slot comes due");
                    } else {
                        Sample s = latest.orElseThrow(() -> new AssertionError("no sample at frame " + ring));
                        assertEquals(f - slots, s.frame(), "sample frame");
                        assertEquals(slots, s.lag(), "lag");
                        assertEquals((int) s.frame(), s.intAt(0), "the sample holds the frame it claims");
                        assertEquals(2 * (int) s.frame() + 1, s.intAt(1));
                        assertEquals(s.frame() < frames / 2 ? 64 : 33, s.intAt(2));
                        assertTrue(s.frame() > lastSeen);
                        lastSeen = s.frame();
                        delivered++;
                    }
                }
                ReadbackStats stats = ring.stats();
                assertEquals(frames - slots, stats.samples());
                assertEquals(frames - slots, delivered);
                assertEquals(slots, stats.lagFrames());
                assertEquals(0, stats.notReady(), "a due slot was not ready");
                assertEquals(0, stats.blockingWaits(), "the ring waited");
                assertEquals(0, ctx.waits().of(Waits.Cause.READBACK).count(), "readback waits, from the context's one counter");
            }
            ctx.waitIdle();
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    /** The synchronous baseline moves the same counter the ring keeps at zero: the zero above can fail. */
    @Test
    void synchronousModeWaitsAndCountsIt() {
        int frames = 20;
        try (Tally rt = open(2, 3)) {
            var ctx = Engine.of(rt).context();
            try (FrameCommands commands = rt.frameCommands();
                 ComputeKernel writer = new ComputeKernel(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12);
                 ReadbackRing ring = rt.readback("readback", 64, ReadbackRing.Mode.SYNC)) {
                for (int f = 0; f < frames; f++) {
                    frame(rt, commands, writer, ring, 1, 1);
                    Sample s = ring.latest().orElseThrow();
                    assertEquals(f, s.frame(), "read within its own frame");
                    assertEquals(f, s.intAt(0));
                    assertEquals(0, s.lag());
                }
                // A wait is counted only when the GPU had not finished yet; lavapipe often has, right after the submit (8 of 20
                // frames waited once on a loaded machine), so one wait is what shows the counter moves.
                assertTrue(ring.stats().blockingWaits() >= 1, "waits: " + ring.stats());
                assertEquals(ring.stats().blockingWaits(), ctx.waits().of(Waits.Cause.READBACK).count());
                // The live counters print what they read.
                String counters = ring.counters().toString();
                assertTrue(counters.contains("samples=" + frames) && counters.contains("blockingWaits=" + ring.stats().blockingWaits())
                        && counters.contains("mode=SYNC"), counters);
            }
        }
    }

    @ParameterizedTest(name = "{0} slots, {1} frames in flight")
    @CsvSource({"2, 2", "1, 1", "3, 4"})
    void slotsMustExceedFramesInFlight(int slots, int framesInFlight) {
        try (Tally rt = open(framesInFlight, framesInFlight + 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ReadbackRingNode(Engine.of(rt).graphs(), "readback", slots, 16, ReadbackRing.Mode.FIXED));
            assertTrue(e.getMessage().contains("frames in flight"), e.getMessage());
        }
    }

    @Test
    void anAbandonedFrameDeliversNothing() {
        try (Tally rt = open(2, 3)) {
            var ctx = Engine.of(rt).context();
            try (FrameCommands commands = rt.frameCommands();
                 ComputeKernel writer = new ComputeKernel(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12);
                 ReadbackRing ring = rt.readback("readback", 64)) {
                frame(rt, commands, writer, ring, 1, 1);                  // frame 0
                Frame given = rt.beginFrame();                           // frame 1: captured, then given up
                FrameGraph g = given.graph();
                BufferHandle src = g.addPass("write", PassKind.TRANSFER, b -> b.write(b.create("src", BufferDesc.of(16)), Access.TRANSFER_DST),
                        (h, c) -> org.lwjgl.vulkan.VK10.vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, 16, 7));
                ring.capture(g, src);
                given.abandon();
                java.util.Map<Long, Integer> seen = new java.util.TreeMap<>();
                for (int f = 0; f < 6; f++) {
                    frame(rt, commands, writer, ring, 1, 1);              // frames 2 .. 7
                    ring.latest().ifPresent(s -> seen.put(s.frame(), s.intAt(0)));
                }
                // Frame numbers are never reused: frame 1 is gone, its capture's fill (7) never comes back,
                // and the six frames after it deliver frames 0, 2, 3 and 4 (three slots: frame 7 delivers frame 4).
                assertEquals(java.util.Map.of(0L, 0, 2L, 2, 3L, 3, 4L, 4), seen);
                assertEquals(4, ring.stats().samples());
            }
            ctx.waitIdle();
            assertEquals(0, ctx.validationLog().total(), () -> ctx.validationLog().messages().toString());
        }
    }

    @Test
    void closingWithPendingSlotsLeaksNothing() {
        dev.tally.internal.vk.ValidationLog log;
        try (Tally rt = open(2, 3)) {
            var ctx = Engine.of(rt).context();
            log = ctx.validationLog();
            try (FrameCommands commands = rt.frameCommands();
                 ComputeKernel writer = new ComputeKernel(ctx, Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12)) {
                ReadbackRing ring = rt.readback("readback", 16);
                for (int f = 0; f < 2; f++) {
                    frame(rt, commands, writer, ring, 1, 1);
                }
                ring.close(); // slots still pending on the GPU: destruction is deferred, not immediate
            }
        }
        // Closing the context reports live VMA allocations and leaked Vulkan objects as errors.
        assertEquals(0, log.total(), () -> log.messages().toString());
    }
}

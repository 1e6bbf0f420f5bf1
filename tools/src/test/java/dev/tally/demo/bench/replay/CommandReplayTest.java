package dev.tally.demo.bench.replay;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.CommonOptions;
import dev.tally.demo.bench.DemoFrames;
import dev.tally.internal.vk.VulkanContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.vkCmdSetLineWidth;

/**
 * The replay under {@code ./tally bench}'s frame-cpu figure issues what the demo's frame issues: a demo
 * frame captured at the driver's door, then one replayed frame captured the same way, hold the same number
 * of each command-buffer call and submit alike; replayed frames allocate nothing and keep validation
 * (synchronization included) silent. On the device Tally opens (lavapipe here), validation on.
 */
class CommandReplayTest {
    private static Tally tally;
    private static DemoFrames demo;

    @BeforeAll
    static void open() {
        tally = Tally.open(Config.load(null, List.of("validation.enabled=true", CommonOptions.LIVE_SHADERS)), List.of());
        demo = new DemoFrames(tally, 64, 36, 4);
        demo.run();   // first-use fills, plans and transients settle: the captured frame is a steady one
    }

    @AfterAll
    static void close() {
        if (demo != null) {
            demo.close();
        }
        if (tally != null) {
            tally.close();
        }
    }

    @Test
    void theReplayIssuesTheSameCallsAsTheDemoFrame() {
        VulkanContext ctx = Engine.of(tally).context();
        try (CommandCapture capture = new CommandCapture(ctx.device());
             CommandStream demoFrame = demo.captureFrame(capture);
             CommandStream replayed = new CommandStream()) {
            ctx.waitIdle();
            assertTrue(demoFrame.counts()[StreamOp.DISPATCH.ordinal()] > 0 && demoFrame.counts()[StreamOp.DRAW.ordinal()] > 0,
                    "the demo frame dispatches and draws: " + describe(demoFrame.counts()));
            try (CommandReplay replay = new CommandReplay(ctx.device(), ctx.queue(), ctx.queueFamily(), demoFrame, ctx.options().framesInFlight())) {
                for (int f = 0; f < 2 * ctx.options().framesInFlight(); f++) {
                    replay.frame();   // every slot used, then reused after its wait
                }
                capture.start(replayed);
                try {
                    replay.frame();
                } finally {
                    capture.stop();
                }
                replay.measure(50);   // warm-up: the frame path compiled
                // A per-frame allocation shows in every run; a one-off of the JVM's (seen here now and then: a few hundred
                // bytes in a run) does not, so one clean run of three passes.
                CommandReplay.Figures f = replay.measure(50);
                for (int run = 1; run < 3 && f.bytesPerFrame() > 0; run++) {
                    f = replay.measure(50);
                }
                assertTrue(f.bytesPerFrame() >= 0, "this JVM cannot count a thread's allocations");
                assertEquals(0, f.bytesPerFrame(), "bytes allocated per replayed frame (CommandReplay.frame, CommandStream.record): their structs are built once");
            }
            assertEquals(describe(demoFrame.counts()), describe(replayed.counts()), "calls per frame, demo vs replay");
            assertEquals(demoFrame.size(), replayed.size());
            assertEquals(demoFrame.submits(), replayed.submits(), "submissions per frame, demo vs replay");
            assertEquals(new CommandStream.Submits(1, 1, 0, 1, 1), replayed.submits(), "one batch: one command buffer, the timeline's signal");
        }
        assertEquals(0, ctx.validationLog().total(), () -> "validation messages: " + ctx.validationLog().messages());
    }

    /**
     * The HUD's draws (a rectangle, the histogram, the plot, each run of text) share one pipeline, set and viewport: the
     * pass binds them once and each draw pushes only its shape, so a graphics pass sets its viewport and scissor once
     * however many draws it makes (binding per draw made 20 of each a frame here, and a descriptor-set lookup per draw).
     */
    @Test
    void aGraphicsPassBindsItsStateOnceForAllItsDraws() {
        VulkanContext ctx = Engine.of(tally).context();
        try (CommandCapture capture = new CommandCapture(ctx.device());
             CommandStream demoFrame = demo.captureFrame(capture)) {
            ctx.waitIdle();
            int[] counts = demoFrame.counts();
            int passes = counts[StreamOp.BEGIN_RENDERING.ordinal()];
            assertTrue(counts[StreamOp.DRAW.ordinal()] > passes, "the demo frame's graphics passes draw several times each: " + describe(counts));
            assertEquals(passes, counts[StreamOp.SET_VIEWPORT.ordinal()], "viewports set per frame, one per graphics pass: " + describe(counts));
            assertEquals(passes, counts[StreamOp.SET_SCISSOR.ordinal()], "scissors set per frame, one per graphics pass: " + describe(counts));
        }
        assertEquals(0, ctx.validationLog().total(), () -> "validation messages: " + ctx.validationLog().messages());
    }

    @Test
    void aCallTheReplayCannotIssueFailsTheCapture() {
        try (CommandCapture capture = new CommandCapture(Engine.of(tally).context().device());
             CommandStream stream = new CommandStream()) {
            capture.start(stream);
            // Refused calls are not forwarded, so this command buffer is never touched.
            vkCmdSetLineWidth(new VkCommandBuffer(1L, Engine.of(tally).context().device()), 1f);
            IllegalStateException e = assertThrows(IllegalStateException.class, capture::stop);
            assertTrue(e.getMessage().startsWith("internal: ") && e.getMessage().contains("vkCmdSetLineWidth"), e.getMessage());
        }
    }

    private static String describe(int[] counts) {
        StringJoiner j = new StringJoiner(", ");
        for (StreamOp op : StreamOp.values()) {
            if (counts[op.ordinal()] > 0) {
                j.add(op.function + " x" + counts[op.ordinal()]);
            }
        }
        return j.toString();
    }
}

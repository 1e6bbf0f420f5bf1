package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.demo.bench.replay.CommandCapture;
import dev.tally.demo.bench.replay.CommandReplay;
import dev.tally.demo.bench.replay.CommandStream;
import dev.tally.internal.vk.VulkanContext;

/**
 * The driver's floor under the demo's frame: one steady-state demo frame's command stream captured, then
 * issued again frame after frame with no Tally code ({@link CommandReplay}), on the same device and queue,
 * with as many frames in flight, measured the same way as {@link DemoFrames#measure()}, waiting for the GPU as the demo's
 * frames do ({@link DemoFrames#spinWaits()}).
 */
public final class FrameReplay {
    private FrameReplay() {
    }

    /** Replays {@code frames} frames of {@code demo}'s stream twice (warm-up, then measured). */
    public static CommandReplay.Figures measure(Tally tally, DemoFrames demo, int frames) {
        return replay(tally, demo, frames, replay -> replay.measure(frames));
    }

    /** Replays {@code frames} frames of {@code demo}'s stream (warm-up), then as many timed phase by phase. */
    public static CommandReplay.Phases measurePhases(Tally tally, DemoFrames demo, int frames) {
        return replay(tally, demo, frames, replay -> replay.measurePhases(frames));
    }

    private static <T> T replay(Tally tally, DemoFrames demo, int frames, java.util.function.Function<CommandReplay, T> measured) {
        VulkanContext ctx = Engine.of(tally).context();
        try (CommandCapture capture = new CommandCapture(ctx.device());
             CommandStream stream = demo.captureFrame(capture)) {
            CommandStream.Submits submits = stream.submits();
            if (submits.calls() != 1 || submits.batches() != 1 || submits.commandBuffers() != 1 || submits.waits() != 0) {
                // The replay submits one command buffer, waiting on nothing: a frame submitted otherwise would be compared unlike.
                throw new IllegalStateException("internal: the captured demo frame submitted " + submits + "; the replay mirrors one batch of one "
                        + "command buffer with no waits");
            }
            ctx.waitIdle();   // the demo's frames are not the replay's to wait for
            try (CommandReplay replay = new CommandReplay(ctx.device(), ctx.queue(), ctx.queueFamily(), stream, ctx.options().framesInFlight(),
                    demo.spinWaits())) {
                replay.measure(frames);   // warm-up: JIT, the driver's first use of the pools
                return measured.apply(replay);
            }
        }
    }
}

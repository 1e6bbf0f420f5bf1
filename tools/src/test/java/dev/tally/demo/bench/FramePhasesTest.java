package dev.tally.demo.bench;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.CommonOptions;
import dev.tally.demo.app.FramePhases;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.Waits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A demo run timed phase by phase ({@link DemoFrames#measurePhases}) times every phase of every frame, and takes the
 * frame-pacing waits out of the phase they fell in: read against a wait counter that never moves, the phase holding the
 * wait grows by about the waits. On the device Tally opens (lavapipe here, whose frames the CPU outruns).
 */
class FramePhasesTest {
    private static final int FRAMES = 16;
    private static Tally tally;
    private static DemoFrames demo;

    @BeforeAll
    static void open() {
        tally = Tally.open(Config.load(null, List.of(CommonOptions.LIVE_SHADERS)), List.of());
        demo = new DemoFrames(tally, 64, 36, FRAMES);
        demo.run();
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
    void everyPhaseIsTimedAndThePacingWaitsAreTakenOut() {
        double waitedBefore = Engine.of(tally).waits().micros(Waits.Cause.PACING);
        FramePhases phases = demo.measurePhases();
        double pacingPerFrame = (Engine.of(tally).waits().micros(Waits.Cause.PACING) - waitedBefore) / FRAMES;
        assertEquals(FRAMES, phases.frames());
        for (FramePhases.Phase p : FramePhases.Phase.values()) {
            double us = phases.medianMicros(p);
            // A wait is timed inside its phase's interval, so taking it out leaves at least 0 (less a rounding).
            assertTrue(us >= -1 && Double.isFinite(us), p + ": " + phases.summary());
        }
        assertTrue(phases.medianMicros(FramePhases.Phase.RECORD) > 0 && phases.medianMicros(FramePhases.Phase.SUBMIT) > 0, phases.summary());
        assertTrue(pacingPerFrame > 200, "lavapipe's frames keep the CPU waiting (" + pacingPerFrame + " us a frame): the check below needs waits");
        FramePhases waitsLeftIn = demo.measurePhases(() -> 0);
        double grown = waitsLeftIn.medianMicros(FramePhases.Phase.COMMANDS) - phases.medianMicros(FramePhases.Phase.COMMANDS);
        assertTrue(grown > pacingPerFrame / 4, "the command buffer's phase with the waits left in grew by " + grown + " us, the waits being "
                + pacingPerFrame + " us a frame: " + phases.summary() + " against " + waitsLeftIn.summary());
    }
}

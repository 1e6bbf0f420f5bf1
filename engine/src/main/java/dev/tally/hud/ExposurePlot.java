package dev.tally.hud;

import dev.tally.hud.HudOverlay;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;

/**
 * The history behind the HUD's exposure plot: a small ring of {time, applied EV, target EV} kept on
 * the GPU and appended by a one-invocation compute pass each frame (shaders/hud_plot.comp), so the
 * plot costs no readback. {@link HudOverlay} draws it as lines.
 */
public interface ExposurePlot extends AutoCloseable {
    /**
     * This frame's plot, for {@link HudOverlay#add}: the ring after the append, and the newest time (the right edge).
     * One object per plot, rewritten by each frame's {@link #add}: read it while declaring and recording that frame, not later.
     */
    interface View {
        /** {@return the ring after this frame's append} */
        BufferHandle ring();

        /** {@return the newest time in the ring, in seconds (the plot's right edge)} */
        float now();
    }
    /** Rebuilds the pipeline from the current shader sources; on a compile error the old one stays. */
    void reload();

    /** Empties the plot at the next frame (a restarted clock). */
    void reset();

    /**
     * Adds pass {@code hud.plot}: appends {@code exposure}'s applied and target EV at scene time {@code now}.
     *
     * @param g        this frame's graph
     * @param exposure this frame's exposure record ({@link dev.tally.exposure.AutoExposure.Result#exposure()})
     * @param now      scene time in seconds, growing from frame to frame
     * @return the view to draw
     */
    View add(FrameGraph g, BufferHandle exposure, float now);

    /** Releases the pipeline and the ring, deferred until the GPU is done with them. */
    void close();
}

package dev.tally.demo.app;

/**
 * What happens to the output between frames besides rendering: nothing for a normal run; resizes,
 * minimizing or closing for soak runs and tests. Injected into {@link DemoApp}, so the loop has no
 * test-only branches of its own.
 */
@FunctionalInterface
public interface FramePolicy {
    /** Nothing happens between frames. */
    FramePolicy NONE = (frame, output) -> {
    };

    /** Called before frame {@code frame} is begun. */
    void beforeFrame(long frame, Output output);

    /** The output a policy may act on: a window, or the offscreen image of a headless run. */
    interface Output {
        /** A window (else the offscreen image of a headless run). */
        boolean windowed();

        /** The size the run was asked for. */
        int requestedWidth();

        int requestedHeight();

        /** Resizes the window (its swapchain follows), or recreates the offscreen image. */
        void resize(int width, int height);

        /** Window only: minimize, restore, ask to close (as the close button does). No-ops headless. */
        void iconify();

        void restore();

        void requestClose();
    }
}

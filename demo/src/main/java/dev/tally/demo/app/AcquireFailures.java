package dev.tally.demo.app;

import java.util.Locale;

/**
 * Consecutive swapchain acquires that found the swapchain out of date. One is routine (a resize: the
 * loop recreates the swapchain and tries again, and a resize storm settles within milliseconds); when
 * acquires keep failing for {@link #GIVE_UP_NANOS} with no image in between, the presentation engine
 * is not coming back, and spinning on it would hang the run with no message.
 */
final class AcquireFailures {
    /** Long enough for any resize or mode switch, short enough that a stuck run says so quickly. */
    static final long GIVE_UP_NANOS = 5_000_000_000L;

    private long since = -1;
    private long count;

    /** An acquire at {@code now} was out of date; throws once they have lasted {@link #GIVE_UP_NANOS}. */
    void failed(long now, long recreations, int width, int height) {
        if (since < 0) {
            since = now;
        }
        count++;
        if (now - since >= GIVE_UP_NANOS) {
            throw new PresentationLostException(String.format(Locale.ROOT,
                    "no swapchain image for %.1f s: %d acquires in a row were out of date although the swapchain was recreated "
                            + "(%d recreations, %dx%d); the window cannot be presented to (a debug.injectFault=out-of-date@1 run "
                            + "ends here too)", (now - since) / 1e9, count, recreations, width, height));
        }
    }

    /** An image was acquired: the failures are over. */
    void acquired() {
        since = -1;
        count = 0;
    }
}

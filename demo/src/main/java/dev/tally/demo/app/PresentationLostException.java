package dev.tally.demo.app;

/**
 * The window can no longer be presented to: every acquire stays out of date although the swapchain was
 * recreated each time. Like a lost device, the run cannot go on; the CLI reports it in one line with
 * the device-lost exit status.
 */
public final class PresentationLostException extends RuntimeException {
    public PresentationLostException(String message) {
        super(message);
    }
}

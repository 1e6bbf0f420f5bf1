package dev.tally.internal.graph;

/**
 * Something a node must do once in a coming frame (upload a table, reset a history), pending until a frame
 * that carries it is recorded. Declaring a frame changes nothing here, so a frame given up before its
 * recording (a swapchain out of date, say) leaves the request for the next frame to declare again.
 * <p>
 * Requests are counted: a frame takes a ticket when it is declared and hands it back from its pass's
 * record callback; a request made after that declaration stays pending for the frame after.
 */
public final class RecordedRequest {
    private long asked;
    private long recorded;

    /** A request pending from the start (a first-frame upload), or not. */
    public RecordedRequest(boolean pendingAtStart) {
        asked = pendingAtStart ? 1 : 0;
    }

    /** Asks for the work once more (it is done once however often it is asked before a frame records it). */
    public void ask() {
        asked++;
    }

    /** The ticket for the frame being declared: 0 when nothing is pending. */
    public long ticket() {
        return asked != recorded ? asked : 0;
    }

    /** From a pass's record callback: the work of {@code ticket} is in a recorded frame now. */
    public void recorded(long ticket) {
        if (ticket > recorded) {
            recorded = ticket;
        }
    }
}

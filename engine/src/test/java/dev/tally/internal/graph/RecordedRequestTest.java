package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A request stays pending through any number of declarations until a recorded frame hands its ticket back. */
class RecordedRequestTest {
    @Test
    void aTicketIsPendingUntilItsFrameIsRecorded() {
        RecordedRequest r = new RecordedRequest(true);
        long declared = r.ticket();
        assertNotEquals(0, declared, "pending from the start");
        assertEquals(declared, r.ticket(), "a declared but unrecorded frame leaves it pending");
        r.recorded(declared);
        assertEquals(0, r.ticket(), "done once recorded");
    }

    @Test
    void aRequestMadeAfterADeclarationOutlivesThatFramesRecording() {
        RecordedRequest r = new RecordedRequest(false);
        assertEquals(0, r.ticket());
        r.ask();
        long declared = r.ticket();
        r.ask();                       // asked again while the frame that took the first ticket is being recorded
        r.recorded(declared);
        assertNotEquals(0, r.ticket(), "the later request is still pending");
        r.recorded(r.ticket());
        assertEquals(0, r.ticket());
        r.recorded(declared);          // an older ticket handed back late changes nothing
        assertEquals(0, r.ticket());
    }
}

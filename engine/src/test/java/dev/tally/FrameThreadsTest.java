package dev.tally;

import dev.tally.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The threading rule: a frame is begun, recorded and submitted on one thread, the one that began it. Another
 * thread's frame operation, or its beginFrame while the frame is open, is an IllegalStateException saying so
 * (never an internal error); once the frame is finished another thread may begin the next.
 */
class FrameThreadsTest {
    private static final String RULE = "frames are begun, recorded and submitted from one thread at a time: the thread that began the frame";

    @TempDir
    static Path cache;

    private static Tally open() {
        return Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache)), List.of());
    }

    /** Runs {@code call} on a thread named "other" and returns what it threw (null: nothing). */
    private static Throwable onOtherThread(Executable call) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                call.execute();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "other");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(t.isAlive(), "the other thread hangs");
        return thrown.get();
    }

    private static void assertThreadError(Throwable e, String... parts) {
        assertInstanceOf(IllegalStateException.class, e, () -> "expected the threading error, got " + e);
        assertFalse(e.getMessage().startsWith("internal"), e::getMessage);
        assertTrue(e.getMessage().contains(RULE), e::getMessage);
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), () -> "expected \"" + p + "\" in: " + e.getMessage());
        }
    }

    @Test
    void anotherThreadCannotBeginRecordOrSubmitAnOpenFrame() throws Exception {
        try (Tally tally = open(); FrameCommands commands = tally.frameCommands()) {
            String owner = Thread.currentThread().getName();
            Frame frame = tally.beginFrame();
            assertThreadError(onOtherThread(tally::beginFrame), "beginFrame on thread 'other'", "frame 0", "begun on thread '" + owner + "'");
            assertThreadError(onOtherThread(() -> commands.begin(frame)), "FrameCommands.begin on thread 'other'");
            var cmd = commands.begin(frame);
            assertThreadError(onOtherThread(() -> frame.record(cmd)), "frame 0: record on thread 'other'", "'" + owner + "'");
            assertThreadError(onOtherThread(frame::abandon), "frame 0: abandon on thread 'other'");
            frame.record(cmd);
            commands.end(cmd);
            assertThreadError(onOtherThread(tally::beginFrame), "frame 0", "still recorded");
            assertThreadError(onOtherThread(() -> frame.submit(cmd)), "frame 0: submit on thread 'other'");
            frame.submit(cmd);

            // Finished: the next frame may be begun (and then owned) by another thread.
            assertNull(onOtherThread(() -> tally.beginFrame().abandon()));
            Frame next = tally.beginFrame();
            assertEquals(2, next.number());
            next.abandon();
        }
    }

    @Test
    void twoThreadsRacingToBeginAFrameGiveOneFrameAndOneThreadingError() throws Exception {
        try (Tally tally = open()) {
            for (int round = 0; round < 20; round++) {
                CyclicBarrier start = new CyclicBarrier(2);
                CyclicBarrier bothTried = new CyclicBarrier(2);
                List<Frame> begun = Collections.synchronizedList(new ArrayList<>());
                List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    Thread t = new Thread(() -> {
                        Frame mine = null;
                        try {
                            start.await();
                            try {
                                mine = tally.beginFrame();
                                begun.add(mine);
                            } catch (Throwable e) {
                                errors.add(e);
                            }
                            bothTried.await();   // the winner's frame stays open until the loser has tried
                            if (mine != null) {
                                mine.abandon();
                            }
                        } catch (Exception e) {
                            errors.add(e);
                        }
                    }, "racer-" + i);
                    threads.add(t);
                    t.start();
                }
                for (Thread t : threads) {
                    t.join(TimeUnit.SECONDS.toMillis(30));
                    assertFalse(t.isAlive(), "a racer hangs");
                }
                assertEquals(1, begun.size(), () -> "round: one frame begun, errors " + errors);
                assertEquals(1, errors.size(), "round: one threading error");
                assertThreadError(errors.get(0), "beginFrame on thread 'racer-");
            }
        }
    }
}

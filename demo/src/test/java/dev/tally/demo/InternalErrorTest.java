package dev.tally.demo;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Main's exit-status policy for failures: a bug (any exception Tally does not expect) is status 1 with
 * one line that says so and names a file holding the stack trace; bad input stays status 2. The failures
 * come from commands built here and added to Main's command line, which is how Main runs its own.
 */
class InternalErrorTest {
    /** A command that fails with whatever the test gives it. */
    @CommandLine.Command(name = "broken")
    static final class Broken implements Callable<Integer> {
        private final Supplier<Throwable> failure;

        Broken(Supplier<Throwable> failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            Throwable t = failure.get();
            if (t instanceof Exception e) {
                throw e;
            }
            throw (Error) t;
        }
    }

    private static Cli.Run runBroken(Supplier<Throwable> failure) {
        return Cli.run(null, () -> Main.commandLine().addSubcommand(new Broken(failure)), "broken");
    }

    /** Asserts the one-line bug report and returns the stack trace file it names (deleted by the caller). */
    private static Path assertBugReport(Cli.Run r, String type, String message) throws IOException {
        assertEquals(1, r.status(), r::toString);
        assertEquals("", r.out(), r::toString);
        assertEquals(1, r.errLines().size(), () -> "one line:\n" + r);
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("tally broken: internal error, a bug in Tally: " + type + ": " + message + "; "), line);
        assertFalse(r.err().contains("\tat "), "no stack trace on the terminal");
        Matcher m = Pattern.compile("stack trace in (\\S+)").matcher(line);
        assertTrue(m.find(), line);
        Path trace = Path.of(m.group(1));
        assertTrue(trace.startsWith(Path.of(System.getProperty("java.io.tmpdir"))), trace::toString);
        String text = Files.readString(trace);
        assertTrue(text.contains(type + ": " + message), text);
        assertTrue(text.contains("\tat dev.tally.demo.InternalErrorTest"), () -> "the trace reaches the failing code:\n" + text);
        return trace;
    }

    @Test
    void nullPointerExceptionIsABugWithStatus1AndATraceFile() throws IOException {
        Path trace = assertBugReport(runBroken(() -> {
            String missing = null;
            return new NullPointerException("value of " + missing);
        }), "NullPointerException", "value of null");
        Files.delete(trace);
    }

    @Test
    void illegalStateExceptionIsABug() throws IOException {
        Files.delete(assertBugReport(runBroken(() -> new IllegalStateException("ring slot 3 reused")), "IllegalStateException", "ring slot 3 reused"));
    }

    @Test
    void anErrorEscapingPicocliIsABugToo() throws IOException {
        Files.delete(assertBugReport(runBroken(() -> new AssertionError("frame counter went back")), "AssertionError", "frame counter went back"));
    }

    @Test
    void badInputStaysStatus2WithoutATraceFile() {
        Cli.Run r = runBroken(() -> new UserInputException("x.f32: no such file"));
        assertEquals(2, r.status(), r::toString);
        assertEquals("tally broken: x.f32: no such file", r.err().strip());
    }

    @Test
    void environmentFailuresAreStatus2() {
        Cli.Run io = runBroken(() -> new UncheckedIOException(new IOException("No space left on device")));
        assertEquals(2, io.status(), io::toString);
        assertTrue(io.err().startsWith("tally broken: I/O error: ") && io.err().contains("No space left on device"), io::toString);
        Cli.Run heap = runBroken(() -> new OutOfMemoryError("Java heap space"));
        assertEquals(2, heap.status(), heap::toString);
        assertTrue(heap.err().startsWith("tally broken: out of Java memory (Java heap space)"), heap::toString);
        assertFalse(io.err().contains("bug") || heap.err().contains("bug"));
    }

    @Test
    void theTraceFileGoesToTheNextDirectoryWhenOneRefusesIt(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        Path good = Files.createDirectories(dir.resolve("good"));
        String said = Main.writeStackTrace(new IllegalStateException("internal: example"), java.util.List.of(notADirectory, good));
        Matcher m = Pattern.compile("stack trace in (\\S+) ").matcher(said);
        assertTrue(m.find(), said);
        Path file = Path.of(m.group(1));
        assertEquals(good, file.getParent(), said);
        assertTrue(Files.readString(file).contains("IllegalStateException: internal: example"), said);
    }
}

package dev.tally.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where long runs (bench, soak) report progress: standard error when a person is watching it (a
 * terminal), nowhere otherwise, so logs and pipes get results only.
 */
final class Progress {
    private Progress() {
    }

    /** Standard error when {@code terminal}, else a stream that drops everything. */
    static PrintStream stream(boolean terminal) {
        return terminal ? System.err : new PrintStream(OutputStream.nullOutputStream());
    }

    /**
     * Whether file descriptor 2 is a terminal. On Linux its /proc link names the device (/dev/pts/N for a
     * pseudo-terminal); elsewhere an interactive session is taken to have a console.
     */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }
}

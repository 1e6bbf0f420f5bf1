package dev.tally.demo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@link Main#run} in-process with System.out/err (and optionally System.in) swapped for buffers. */
final class Cli {
    private Cli() {
    }

    record Run(int status, String out, String err, long millis) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }

        @Override
        public String toString() {
            return "status " + status + " in " + millis + " ms\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run run(String... args) {
        return run((InputStream) null, args);
    }

    static Run run(byte[] stdin, String... args) {
        return run(stdin == null ? null : new ByteArrayInputStream(stdin), args);
    }

    static Run run(InputStream stdin, String... args) {
        return run(stdin, Main::commandLine, args);
    }

    /**
     * Runs {@code args} on the command line {@code cli} makes (built after the streams are swapped, as Main
     * builds its own): tests add commands of their own to Main's.
     */
    static Run run(InputStream stdin, java.util.function.Supplier<picocli.CommandLine> cli, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        InputStream oldIn = System.in;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        long t0 = System.nanoTime();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            if (stdin != null) {
                System.setIn(stdin);
            }
            status = Main.execute(cli.get(), args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            System.setIn(oldIn);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), (System.nanoTime() - t0) / 1_000_000);
    }

    /** The demo's normal progress lines on stderr (banner and once-a-second status), which are not errors. */
    static boolean isDemoProgress(String line) {
        return line.startsWith("demo on ") || line.matches("frame \\d+ .*fps.*");
    }
}

package dev.tally.demo.bench;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A JDK of version 25 or later, other than this JVM, for tests that check what runs differently there (LWJGL's FFM
 * backend): {@code $TALLY_JDK25}, else the newest such JDK under /usr/lib/jvm. Where this JVM is one already, the tests'
 * other cases ran on it, and these are not repeated.
 */
final class Jdk25 {
    private Jdk25() {
    }

    /** The JDK's home, or the test is aborted, saying so on standard error (a skipped check is reported, not hidden). */
    static Path homeOrAbort() {
        if (Runtime.version().feature() >= 25) {
            String why = "SKIPPED: this JVM is JDK " + Runtime.version().feature() + ": the other cases ran on it";
            System.err.println(why);
            Assumptions.abort(why);
        }
        Optional<Path> home = home();
        if (home.isEmpty()) {
            String why = "SKIPPED: no JDK 25 or later (this JVM is " + Runtime.version().feature() + "; none in $TALLY_JDK25 or under"
                    + " /usr/lib/jvm): the frame's allocations on LWJGL's JDK 25 path are not checked here";
            System.err.println(why);
            Assumptions.abort(why);
        }
        return home.get();
    }

    static Optional<Path> home() {
        String set = System.getenv("TALLY_JDK25");
        if (set != null && !set.isBlank()) {
            return Optional.of(Paths.get(set));   // named by hand: used as given (a wrong one fails the probe, loudly)
        }
        Path jvms = Paths.get("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(jvms)) {
            return dirs.filter(d -> feature(d) >= 25 && Files.isExecutable(d.resolve("bin").resolve("java")))
                    .max(Comparator.comparingInt(Jdk25::feature));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The feature version in the JDK's {@code release} file ({@code JAVA_VERSION="25.0.1"}), or 0. */
    private static int feature(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    int end = 0;
                    while (end < v.length() && Character.isDigit(v.charAt(end))) {
                        end++;
                    }
                    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}

package dev.tally.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The output files of one run, checked before the run starts (a mistake found after minutes of work
 * loses its results): each is not a directory, its directory exists and is writable, and no two
 * outputs name the same file (one would silently replace the other).
 */
final class OutputPaths {
    private final Map<Path, String> byFile = new HashMap<>();

    /** Checks {@code file} (null: not asked for) as the output of {@code option}; returns this for chaining. */
    OutputPaths add(String option, Path file) {
        if (file == null) {
            return this;
        }
        if (file.toString().isEmpty()) {
            throw new UserInputException(option + ": empty file name; give the file to write");
        }
        Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            throw new UserInputException(option + " " + file + ": is a directory, expected a file name (e.g. " + file.resolve("out.json") + ")");
        }
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UserInputException(option + " " + file + ": directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new UserInputException(option + " " + file + ": directory " + dir + " is not writable");
        }
        Path key = canonical(absolute);
        String other = byFile.putIfAbsent(key, option);
        if (other != null) {
            throw new UserInputException(other + " and " + option + " both name " + file + "; give each output its own file");
        }
        return this;
    }

    /** The same file however it is spelled: the directory with its links resolved, then the name. */
    private static Path canonical(Path absolute) {
        try {
            return absolute.getParent().toRealPath().resolve(absolute.getFileName());
        } catch (java.io.IOException e) {
            return absolute;
        }
    }
}

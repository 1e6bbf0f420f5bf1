package dev.tally.demo;

import java.nio.file.Path;

/**
 * File names the user typed are relative to the directory the user ran {@code ./tally} from. The
 * launcher works inside the repository (it builds there), so it passes the caller's directory in
 * {@value #ENV}; without it (the Java command run directly) the working directory is the caller's.
 */
public final class CallerPaths {
    static final String ENV = "TALLY_CALLER_DIR";

    private CallerPaths() {
    }

    /** {@code path} as the caller meant it: absolute paths as they are, relative ones under the caller's directory. */
    public static Path resolve(Path path) {
        String caller = System.getenv(ENV);
        if (path.isAbsolute() || caller == null || caller.isEmpty()) {
            return path;
        }
        return Path.of(caller).resolve(path);
    }
}

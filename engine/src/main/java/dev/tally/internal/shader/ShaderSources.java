package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where GLSL comes from: a directory on disk (the repository's {@code shaders/}, which enables hot
 * reload), or the copy packaged in the engine jar. Names are flat: "reduce.comp", "common.glsl".
 */
public final class ShaderSources {
    private static final String PACKAGED = "tally/shaders/";
    private final Path directory;

    private ShaderSources(Path directory) {
        this.directory = directory;
    }

    public static ShaderSources packaged() {
        return new ShaderSources(null);
    }

    public static ShaderSources directory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("shader directory " + dir + " does not exist");
        }
        return new ShaderSources(dir);
    }

    /** The repository's shaders/ when run from a checkout (live edits, hot reload), else the packaged copy. */
    public static ShaderSources preferDirectory(Path dir) {
        return dir != null && Files.isDirectory(dir) ? directory(dir) : packaged();
    }

    /** The directory being read, or null for packaged sources. */
    public Path directory() {
        return directory;
    }

    public String read(String name) {
        if (name.contains("..") || name.startsWith("/")) {
            throw new ShaderCompileException(name + ": shader names are plain file names under shaders/");
        }
        try {
            if (directory != null) {
                Path file = directory.resolve(name);
                if (Files.isRegularFile(file)) {
                    return Files.readString(file, StandardCharsets.UTF_8);
                }
                // Not in the directory: an application's own shaders may ship on its classpath.
            }
            // The engine's own GLSL through its module (on the module path a class loader cannot see a named module's
            // resources), then an application's on the class path.
            InputStream packaged = ShaderSources.class.getModule().getResourceAsStream(PACKAGED + name);
            try (InputStream in = packaged != null ? packaged : ShaderSources.class.getClassLoader().getResourceAsStream(PACKAGED + name)) {
                if (in == null) {
                    throw new ShaderCompileException(name + ": no such shader " + (directory != null ? "in " + directory + ", " : "")
                            + "in the engine's jar or on the class path; a host's own shaders go in the directory shaders.dir names (with shaders.live=true)");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading shader " + name, e);
        }
    }
}

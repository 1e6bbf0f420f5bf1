package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The build's shader step: compiles every variant of a list (a class with a static {@code all()}
 * returning {@code List<ShaderVariant>}, such as {@link EngineShaders}) from a GLSL directory into
 * SPIR-V resources under an output directory (the jar's classes). Any compile error fails the build.
 * <p>
 * Usage: {@code PrebuildShaders LIST_CLASS GLSL_DIR OUTPUT_DIR}
 */
public final class PrebuildShaders {
    private PrebuildShaders() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PrebuildShaders LIST_CLASS GLSL_DIR OUTPUT_DIR, got " + args.length + " arguments");
        }
        Method all = Class.forName(args[0]).getMethod("all");
        @SuppressWarnings("unchecked")
        List<ShaderVariant> variants = (List<ShaderVariant>) all.invoke(null);
        build(args[0], variants, Path.of(args[1]), Path.of(args[2]));
    }

    /**
     * Compiles {@code variants} (listed by {@code listName}, for messages) from {@code glsl} into SPIR-V resources under
     * {@code output}, whose earlier SPIR-V not in the list is removed; any compile error throws, naming the variant.
     */
    public static void build(String listName, List<ShaderVariant> variants, Path glsl, Path output) throws IOException {
        long t0 = System.nanoTime();
        try (ShaderCompiler compiler = new ShaderCompiler(ShaderSources.directory(glsl), null)) {
            Set<String> written = new HashSet<>();
            for (ShaderVariant variant : variants) {
                if (!written.add(variant.resource())) {
                    throw new IllegalArgumentException(listName + " lists " + variant + " twice");
                }
                byte[] spirv;
                try {
                    spirv = compiler.compile(variant.file(), variant.defines());
                } catch (ShaderCompileException e) {
                    throw new ShaderCompileException(variant + ": " + e.getMessage());
                }
                Path file = output.resolve(variant.resource());
                Files.createDirectories(file.getParent());
                write(file, spirv);
            }
            removeUnlisted(output, written);
        }
        System.out.printf("tally: %d shader variants of %s compiled into %s in %.1f s%n", variants.size(), listName, output,
                (System.nanoTime() - t0) / 1e9);
    }

    /** A variant dropped from the list leaves no SPIR-V behind from an earlier build: the jar holds the list exactly. */
    private static void removeUnlisted(Path output, Set<String> written) throws IOException {
        // Only the directories this list writes: a host's build (ShaderBuild) leaves an engine's SPIR-V under the same root alone.
        Set<String> directories = new java.util.TreeSet<>();
        for (String resource : written) {
            directories.add(resource.substring(0, resource.lastIndexOf('/') + 1));
        }
        for (String directory : directories) {
            Path dir = output.resolve(directory);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (!written.contains(output.relativize(f).toString().replace(java.io.File.separatorChar, '/'))) {
                        Files.delete(f);
                    }
                }
            }
        }
    }

    private static void write(Path file, byte[] spirv) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, spirv);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}

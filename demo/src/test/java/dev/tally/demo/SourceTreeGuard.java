package dev.tally.demo;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.TreeSet;

/**
 * Fails a test class that leaves a new file in the source tree: caches, outputs and scratch files belong
 * in temporary directories or under target/. Registered for every test class of this module through
 * {@code META-INF/services} (extension autodetection is on in {@code junit-platform.properties}). Before and
 * after each class it lists where a test's relative paths land: everything under the working directory (this
 * module), build outputs ({@code target/}) aside, and the entries at the top of the checkout. Deeper folders of
 * other modules are left out, so that editing them while the tests run is no failure.
 */
public final class SourceTreeGuard implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SourceTreeGuard.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("before", snapshot());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        @SuppressWarnings("unchecked")
        Set<String> before = context.getStore(NS).get("before", Set.class);
        Set<String> added = added(before, snapshot());
        if (!added.isEmpty()) {
            throw new AssertionError(context.getDisplayName() + " wrote into the source tree (use a @TempDir or target/): "
                    + String.join(", ", added.stream().limit(10).toList()) + (added.size() > 10 ? " and " + (added.size() - 10) + " more" : ""));
        }
    }

    /** This module's files and the checkout's top-level entries, relative to the checkout. */
    static Set<String> snapshot() {
        Path root = checkoutRoot();
        Path module = Path.of("").toAbsolutePath();
        Set<String> all = new TreeSet<>();
        try (java.util.stream.Stream<Path> top = Files.list(root)) {
            top.filter(p -> !p.getFileName().toString().equals(".git"))
                    .forEach(p -> all.add(root.relativize(p) + (Files.isDirectory(p) ? "/" : "")));
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + root, e);
        }
        String prefix = module.equals(root) ? "" : root.relativize(module) + "/";
        for (String f : files(module)) {
            all.add(f.equals("/") ? prefix : prefix + f);
        }
        return all;
    }

    /** The paths in {@code after} that are not in {@code before}. */
    static Set<String> added(Set<String> before, Set<String> after) {
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        return added;
    }

    /** The checkout holding the working directory: the nearest directory up from it with the Maven wrapper. */
    static Path checkoutRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("mvnw")) && Files.isDirectory(d.resolve("engine"))) {
                return d;
            }
        }
        throw new IllegalStateException("internal: no checkout (a directory with mvnw and engine/) above " + dir);
    }

    /** Every file and directory under {@code root}, relative, build outputs and version control aside. */
    static Set<String> files(Path root) {
        Set<String> all = new TreeSet<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    if (!dir.equals(root) && (name.equals("target") || name.equals(".git"))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    all.add(root.relativize(dir) + "/");
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (!file.getFileName().toString().equals(".git")) {
                        all.add(root.relativize(file).toString());
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;   // a file removed while listing is no new file
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + root, e);
        }
        return all;
    }
}

package dev.tally.demo;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The demo (the app, its window and its commands) is Tally's first embedder: it uses only what the engine
 * exports. No source of this module names an internal package ({@code dev.tally.internal}), by import or by a
 * qualified name; the measurement tools that time the internals by design live in the tools module.
 */
class ExportedApiOnlyTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String INTERNAL = "dev.tally.internal";

    @Test
    void theDemoNamesNoInternalPackage() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains(INTERNAL)) {
                        found.add(SOURCES.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertTrue(Files.isRegularFile(SOURCES.resolve("dev/tally/demo/app/DemoApp.java")), "the demo's sources were not found");
        assertTrue(found.isEmpty(), "the demo uses internal types; use the exported API (or export what an embedder would need too): "
                + String.join("; ", found));
    }
}

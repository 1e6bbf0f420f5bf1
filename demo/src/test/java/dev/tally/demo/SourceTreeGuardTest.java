package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The guard that fails a test class writing into the checkout sees new files and only them. */
class SourceTreeGuardTest {
    @TempDir
    Path tree;

    @Test
    void aNewFileOrFolderIsReportedAndBuildOutputIsNot() throws IOException {
        Files.createDirectories(tree.resolve("demo/src"));
        Files.writeString(tree.resolve("demo/src/A.java"), "");
        Set<String> before = SourceTreeGuard.files(tree);

        Files.createDirectories(tree.resolve("demo/null/spirv"));
        Files.writeString(tree.resolve("demo/null/spirv/x.spv"), "");
        Files.createDirectories(tree.resolve("demo/target/classes"));
        Files.writeString(tree.resolve("demo/target/classes/B.class"), "");
        Files.writeString(tree.resolve("demo/src/A.java"), "changed");

        assertEquals(Set.of("demo/null/", "demo/null/spirv/", "demo/null/spirv/x.spv"),
                SourceTreeGuard.added(before, SourceTreeGuard.files(tree)));
    }

    @Test
    void theCheckoutIsFoundFromTheWorkingDirectory() {
        Path root = SourceTreeGuard.checkoutRoot();
        assertTrue(Files.isRegularFile(root.resolve("mvnw")) && Files.isDirectory(root.resolve("demo")), root::toString);
    }

    @Test
    void theSnapshotHoldsThisModuleAndTheCheckoutsTopLevelOnly() {
        Set<String> snapshot = SourceTreeGuard.snapshot();
        assertTrue(snapshot.contains("demo/pom.xml"), "this module's files");
        assertTrue(snapshot.contains("demo/src/test/java/dev/tally/demo/SourceTreeGuardTest.java"), "this module's files, deep");
        assertTrue(snapshot.contains("engine/") && snapshot.contains("pom.xml"), "the checkout's top level");
        assertFalse(snapshot.contains("engine/pom.xml"), "other modules' insides are left out");
        assertTrue(snapshot.stream().noneMatch(p -> p.startsWith("demo/target")), "build output is left out");
    }
}

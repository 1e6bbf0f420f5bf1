package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The launcher runs Java inside the repository and names the caller's directory in TALLY_CALLER_DIR:
 * relative input and output names are the caller's. Run as a separate JVM whose working directory is not
 * the caller's, as the launcher runs it.
 */
class CallerDirectoryTest {
    @TempDir
    Path caller;
    @TempDir
    Path repository;
    @TempDir
    Path cache;

    private record Result(int status, String out) {
    }

    private Result tally(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xss4m"));
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), dev.tally.tools.ToolsMain.class.getName()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--set", "cache.dir=" + cache));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(repository.toFile()).redirectErrorStream(true);
        pb.environment().put(CallerPaths.ENV, caller.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
        System.err.println(String.join(" ", args) + " -> " + p.exitValue() + "\n" + out);
        return new Result(p.exitValue(), out);
    }

    @Test
    void aRelativeInputIsReadFromTheCallersDirectory() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putFloat(1).putFloat(2).putFloat(3);
        Files.write(caller.resolve("data.f32"), b.array());
        Result r = tally("reduce", "data.f32");
        assertEquals(0, r.status(), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.equals("sum 6.0")), r.out());
    }

    @Test
    void aRelativeOutputIsWrittenInTheCallersDirectoryAndNamedSo() throws Exception {
        Result r = tally("demo", "--headless", "--frames", "2", "--width", "64", "--height", "36", "--stats-json", "x.json", "--graph-dot", "g.dot");
        assertEquals(0, r.status(), r.out());
        assertTrue(Files.isRegularFile(caller.resolve("x.json")) && Files.isRegularFile(caller.resolve("g.dot")), r.out());
        assertFalse(Files.exists(repository.resolve("x.json")) || Files.exists(repository.resolve("g.dot")), "nothing in the working directory");
        assertTrue(r.out().contains("wrote " + caller.resolve("x.json")), r.out());
    }
}

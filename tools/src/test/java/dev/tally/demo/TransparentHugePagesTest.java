package dev.tally.demo;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * frame-cpu's row says whether the JVM keeps its heap in transparent huge pages as the JVM took the option: on with
 * -XX:+UseTransparentHugePages where the kernel gives them on request, off without it, and off where the kernel gives none.
 */
class TransparentHugePagesTest {
    /** Prints what the bench reports for this JVM. */
    public static final class Probe {
        public static void main(String[] args) {
            System.out.println("transparentHugePages=" + BenchCommand.transparentHugePages());
        }
    }

    @Test
    void theRowReportsTheOptionAsTheJvmTookIt() throws Exception {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean kernelGives = Files.isReadable(mode) && Files.readString(mode).matches("(?s).*\\[(always|madvise)\\].*");
        assertEquals("transparentHugePages=false", probe(), "without the option");
        assertEquals("transparentHugePages=" + kernelGives, probe("-XX:+UseTransparentHugePages"),
                "with the option, the kernel's mode " + (Files.isReadable(mode) ? Files.readString(mode).trim() : "unknown"));
    }

    private static String probe(String... jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe finished");
        assertEquals(0, p.exitValue(), out);
        // The JVM's own warning where the kernel gives no huge pages comes first; the answer is the last line.
        String[] lines = out.strip().split("\n");
        return lines[lines.length - 1].strip();
    }
}

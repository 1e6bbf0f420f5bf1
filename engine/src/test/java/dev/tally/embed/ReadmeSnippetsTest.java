package dev.tally.embed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's embedding snippets are excerpts of the example host (examples/embed), which `.ci/run` builds
 * and runs: every code line of them (comments aside; a body elided as "{ ... }" matches up to the brace)
 * stands in the example's sources, so the README cannot drift from code that compiles and runs.
 */
class ReadmeSnippetsTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void everyEmbeddingSnippetLineStandsInTheExampleSources() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## Embedding");
        int end = readme.indexOf("### What Tally needs", start);
        assertTrue(start >= 0 && end > start, "README.md has an Embedding section followed by 'What Tally needs'");
        String source = exampleSources();
        List<String> missing = new ArrayList<>();
        int lines = 0;
        Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme.substring(start, end));
        while (block.find()) {
            for (String line : block.group(1).split("\n")) {
                String code = normalized(line);
                if (code.isEmpty() || code.startsWith("/**") || code.startsWith("*")) {
                    continue;
                }
                if (code.endsWith("{ ... }")) {
                    code = code.substring(0, code.length() - "{ ... }".length()) + "{";   // the elided body's opening brace stays
                }
                lines++;
                if (!source.contains(code)) {
                    missing.add(code);
                }
            }
        }
        assertTrue(lines > 20, "premise: the snippets hold code (" + lines + " lines read)");
        assertEquals(List.of(), missing, "README lines not found in examples/embed (update the README or the example)");
    }

    /** A line without its comment, with runs of white space as one space. */
    private static String normalized(String line) {
        int comment = line.indexOf("//");
        return (comment >= 0 ? line.substring(0, comment) : line).replaceAll("\\s+", " ").trim();
    }

    private static String exampleSources() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(ROOT.resolve("examples/embed/src/main/java"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                all.append(Files.readString(f).replaceAll("\\s+", " ")).append(' ');
            }
        }
        return all.toString();
    }
}

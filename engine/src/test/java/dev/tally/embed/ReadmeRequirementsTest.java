package dev.tally.embed;

import dev.tally.Tally;
import dev.tally.vk.Requirements;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The README's requirements table is what {@code Tally.wrap} and the graphics paths check: the same rows, no more, no fewer. */
class ReadmeRequirementsTest {
    private static final String HEADING = "### What Tally needs of your device";

    /** The table's rows under {@link #HEADING}, each as its first three cells with backticks removed. */
    private static List<List<String>> rows() throws IOException {
        Path readme = Path.of("..", "README.md");   // tests run in engine/
        assertTrue(Files.exists(readme), "README.md not found at " + readme.toAbsolutePath());
        List<String> lines = Files.readAllLines(readme);
        int at = lines.indexOf(HEADING);
        assertTrue(at >= 0, "README.md has no '" + HEADING + "' section");
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (int i = at + 1; i < lines.size() && !lines.get(i).startsWith("### "); i++) {
            String line = lines.get(i).trim();
            if (!line.startsWith("|")) {
                if (inTable) {
                    break;
                }
                continue;
            }
            inTable = true;
            String[] cells = line.substring(1).split("\\|");
            String first = cells[0].trim();
            if (first.equals("part") || first.startsWith("---")) {
                continue;
            }
            rows.add(List.of(first, cells[1].replace("`", "").trim(), cells[2].replace("`", "").trim()));
        }
        return rows;
    }

    @Test
    void theReadmeTableListsExactlyTheFeaturesAndExtensionsTallyChecks() throws IOException {
        Set<List<String>> documented = new HashSet<>(rows());
        Set<List<String>> checked = new HashSet<>();
        Requirements r = Tally.requirements();
        for (Requirements.Feature f : r.features()) {
            checked.add(List.of(f.part().id(), f.name(), f.struct()));
        }
        for (Requirements.Feature f : r.optionalFeatures()) {
            checked.add(List.of(f.part().id(), f.name() + " (optional)", f.struct()));
        }
        for (Requirements.Extension e : r.extensions()) {
            checked.add(List.of(e.part().id(), e.name() + (e.required() ? " (extension)" : " (extension, optional)"), "ppEnabledExtensionNames"));
        }
        Set<List<String>> undocumented = new HashSet<>(checked);
        undocumented.removeAll(documented);
        Set<List<String>> unchecked = new HashSet<>(documented);
        unchecked.removeAll(checked);
        assertEquals(Set.of(), undocumented, "checked by wrap but missing from the README's table");
        assertEquals(Set.of(), unchecked, "in the README's table but not what wrap checks");
        assertEquals(documented.size(), rows().size(), "no row twice");
    }

    @Test
    void theReadmeStatesTheVulkanVersionWrapChecks() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int v = Tally.requirements().apiVersion();
        String version = org.lwjgl.vulkan.VK10.VK_API_VERSION_MAJOR(v) + "." + org.lwjgl.vulkan.VK10.VK_API_VERSION_MINOR(v);
        int section = readme.indexOf(HEADING);
        assertTrue(readme.startsWith("A Vulkan " + version + " instance", section + HEADING.length() + 2),
                "the section opens with the version: " + readme.substring(section, section + 120));
    }
}

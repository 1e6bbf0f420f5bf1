package dev.tally.internal.vk;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The names read from VMA's detailed map for the close-time report: allocations only (no free ranges), escapes undone. */
class AllocationNamesTest {
    @Test
    void namesComeOutOfTheDetailedMapInOrderWithEscapesUndone() {
        String json = "{\"Blocks\": {\"0\": {\"Suballocations\": [{\"Offset\": 0, \"Type\": \"BUFFER\", \"Size\": 64, \"Usage\": 32, "
                + "\"Name\": \"first \\\"quoted\\\" one\"}, {\"Offset\": 64, \"Type\": \"FREE\", \"Size\": 960}, {\"Offset\": 1024, "
                + "\"Type\": \"IMAGE_OPTIMAL\", \"Size\": 4096, \"Usage\": 7, \"Name\": \"hdr\"}, {\"Offset\": 5120, \"Type\": \"UNKNOWN\", "
                + "\"Size\": 256}, {\"Offset\": 5376, \"Type\": \"BUFFER\", \"Size\": 4, \"Name\": \"a\\\\b\"}]}}}";
        assertEquals(List.of("first \"quoted\" one", "hdr", "unnamed", "a\\b"), MemoryStatistics.allocationNames(json));
    }
}

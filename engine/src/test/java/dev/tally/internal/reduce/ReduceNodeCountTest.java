package dev.tally.internal.reduce;

import dev.tally.reduce.ReduceNode;

import dev.tally.internal.graph.GraphDeclaration;

import dev.tally.internal.engine.Engine;

import dev.tally.reduce.ReduceOp;

import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/** A reduction node refuses a count larger than the buffer it is given, when the node is added. */
class ReduceNodeCountTest extends GpuTestBase {
    @Test
    void aCountBeyondAnImportedBufferIsRefusedNamingNodeCountAndCapacity() {
        try (ReduceNode node = runtime.reduceNode("totals", ReduceOp.SUM, 1000);
             TrackedBuffer values = new TrackedBuffer(Engine.of(runtime).context(), "values", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            FrameGraph g = new GraphDeclaration();
            BufferHandle imported = g.importBuffer("values", values, Access.COMPUTE_READ);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> node.add(g, imported, 100));
            String m = e.getMessage();
            assertTrue(m.contains("'totals'") && m.contains("100") && m.contains("'values'") && m.contains("16 floats"), m);
            assertFalse(m.contains("\n"), m);
            // Up to the capacity is fine.
            assertNotNull(node.add(g, imported, 16));
        }
    }
}

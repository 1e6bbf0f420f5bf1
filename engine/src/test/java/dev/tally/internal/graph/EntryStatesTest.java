package dev.tally.internal.graph;

import dev.tally.Frame;
import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.engine.Engine;
import dev.tally.internal.vk.ResourceState;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The entry state of an import the host declares (importBuffer or importImage with an entry access) is made once per
 * access and kept: a host that declares six kinds of entry every frame gets the same states back, so no state is
 * made per frame.
 */
class EntryStatesTest extends GpuTestBase {
    @Test
    void sixKindsOfEntryDeclaredTwiceGetTheSameStatesBack() {
        var ctx = Engine.of(runtime).context();
        List<Access> entries = List.of(Access.TRANSFER_DST, Access.TRANSFER_SRC, Access.COMPUTE_WRITE, Access.COMPUTE_READ, Access.COMPUTE_READ_WRITE,
                Access.HOST_READ);
        List<TrackedBuffer> buffers = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * entries.size(); i++) {
                buffers.add(new TrackedBuffer(ctx, "entry" + i, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
                        | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.DEVICE));
            }
            Frame frame = runtime.beginFrame();
            GraphDeclaration g = (GraphDeclaration) frame.graph();
            List<ResourceState> first = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < entries.size(); i++) {
                    BufferHandle h = g.importBuffer("entry" + (round * entries.size() + i), buffers.get(round * entries.size() + i), entries.get(i), null);
                    ResourceState entry = g.resources.get(h.resource()).entry;
                    if (round == 0) {
                        first.add(entry);
                    } else {
                        assertSame(first.get(i), entry, "the entry state after " + entries.get(i) + " is made once");
                    }
                }
            }
            frame.abandon();
        } finally {
            buffers.forEach(TrackedBuffer::close);
        }
    }
}

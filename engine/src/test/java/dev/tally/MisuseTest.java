package dev.tally;

import dev.tally.config.Config;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphException;
import dev.tally.readback.ReadbackRing;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

/**
 * Mistakes a host makes with the exported API, each refused in one line naming what is wrong, before any native call
 * that would record a destroyed object (a crash of the JVM) or race without a barrier (lavapipe, validation on).
 */
class MisuseTest extends GpuTestBase {
    @TempDir
    static Path cache;

    /** Declares {@code declare} in a new frame, then abandons the frame (nothing is recorded). */
    private Throwable declaring(Consumer<FrameGraph> declare) {
        Frame frame = runtime.beginFrame();
        try {
            declare.accept(frame.graph());
            return null;
        } catch (RuntimeException e) {
            return e;
        } finally {
            frame.abandon();
        }
    }

    private GpuBuffer storage(String name) {
        return runtime.createBuffer(name, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.DEVICE);
    }

    @Test
    void aNodeUsedAfterItsOwnCloseIsRefusedNamingIt() {
        GpuBuffer data = storage("misuse.data");
        ReduceNode node = runtime.reduceNode("misuse.sum", ReduceOp.SUM, 1024);
        node.close();
        Throwable e = declaring(g -> node.add(g, g.importBuffer("misuse.data", data, null), 1024));
        assertInstanceOf(IllegalStateException.class, e);
        assertEquals("reduce node 'misuse.sum' used after its close(); make another node", e.getMessage());
        data.close();
    }

    @Test
    void anEarlierFramesHandleGivenToANodeIsRefusedNamingTheNode() {
        GpuBuffer data = storage("misuse.data");
        ReduceNode node = runtime.reduceNode("misuse.sum", ReduceOp.SUM, 1024);
        BufferHandle[] earlier = new BufferHandle[1];
        assertNull(declaring(g -> earlier[0] = node.add(g, g.importBuffer("misuse.data", data, null), 1024)));
        Throwable e = declaring(g -> node.add(g, earlier[0], 4));
        assertInstanceOf(GraphException.class, e);
        assertTrue(e.getMessage().startsWith("reduce node 'misuse.sum' input: handle "), e::getMessage);
        assertTrue(e.getMessage().contains(" is not one of frame ") && e.getMessage().endsWith("pass the one this frame's graph gave"),
                e::getMessage);
        node.close();
        data.close();
    }

    @Test
    void aRingUsedAfterItsOwnCloseIsRefusedNamingIt() {
        GpuBuffer data = storage("misuse.captured");
        ReadbackRing ring = runtime.readback("misuse.ring", 64);
        ring.close();
        Throwable e = declaring(g -> ring.capture(g, g.importBuffer("misuse.captured", data, null)));
        assertInstanceOf(IllegalStateException.class, e);
        assertEquals("readback ring 'misuse.ring' used after its close(); make another ring", e.getMessage());
        data.close();
    }

    @Test
    void aClosedBufferIsRefusedWhereItIsImported() {
        GpuBuffer data = storage("misuse.closed");
        data.close();
        Throwable e = declaring(g -> g.importBuffer("closed", data, null));
        assertInstanceOf(IllegalStateException.class, e);
        assertTrue(e.getMessage().startsWith("importBuffer 'closed': buffer 'misuse.closed' was closed"), e::getMessage);
    }

    @Test
    void oneBufferUnderTwoNamesInAFrameIsRefused() {
        // Two names would be two resources with two states: no barrier between a write through one and a read through the other.
        GpuBuffer data = storage("misuse.twice");
        GpuBuffer other = storage("misuse.other");
        Throwable e = declaring(g -> {
            g.importBuffer("other", other, null);   // the first name is not the frame's first resource
            g.importBuffer("first", data, null);
            g.importBuffer("second", data, null);
        });
        assertInstanceOf(GraphException.class, e);
        assertEquals("resource 'second': its buffer is already in this frame as 'first'; use that handle (or the handle its last pass returned)",
                e.getMessage());
        assertNull(declaring(g -> g.importBuffer("first", data, null)), "one import a frame is fine");
        data.close();
        other.close();
    }

    @Test
    void captureRegionsOutsideTheirBufferOrOfNoWholeFloatAreRefused() {
        GpuBuffer data = storage("misuse.region");   // 4096 bytes
        ReadbackRing ring = runtime.readback("misuse.regions", 256);
        for (long[] bad : new long[][]{{4000, 200}, {4092, 8}, {0, 0}, {0, 6}, {-4, 8}}) {
            Throwable e = declaring(g -> {
                BufferHandle h = g.importBuffer("region", data, null);
                ring.capture(g, List.of(new ReadbackRing.Region(h, bad[0], bad[1])));
            });
            assertInstanceOf(IllegalArgumentException.class, e, () -> bad[0] + "+" + bad[1]);
            assertEquals("readback ring 'misuse.regions': region of " + bad[1] + " bytes at offset " + bad[0] + " of buffer 'region' (4096 bytes);"
                    + " a region is whole floats (a multiple of 4 bytes, at least 4) inside its buffer", e.getMessage());
        }
        assertNull(declaring(g -> ring.capture(g, List.of(new ReadbackRing.Region(g.importBuffer("region", data, null), 4092, 4)))),
                "the last float is inside");
        ring.close();
        data.close();
    }

    @Test
    void aSubscribersDestinationTooSmallForTheCaptureIsRefusedWhereTheCaptureIsDeclared() {
        GpuBuffer data = storage("misuse.room");
        ReadbackRing ring = runtime.readback("misuse.room", 64);
        try (var subscription = ring.onSample(new float[1], null)) {
            Throwable e = declaring(g -> ring.capture(g, List.of(ReadbackRing.Region.of(g.importBuffer("room", data, null), 8))));
            assertInstanceOf(IllegalArgumentException.class, e);
            assertEquals("readback ring 'misuse.room': this capture is 2 floats, and a subscriber's onSample(float[]) destination holds 1;"
                    + " give it at least 2", e.getMessage());
            assertNull(declaring(g -> ring.capture(g, List.of(ReadbackRing.Region.of(g.importBuffer("room", data, null), 4)))), "one float fits");
        }
        ring.close();
        data.close();
    }

    @Test
    void aBufferWithoutStorageUsageIsRefusedByTheNodeThatReadsIt() {
        GpuBuffer noStorage = runtime.createBuffer("misuse.noStorage", 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
        ReduceNode node = runtime.reduceNode("misuse.usage", ReduceOp.SUM, 1024);
        Throwable e = declaring(g -> node.add(g, g.importBuffer("noStorage", noStorage, null), 1024));
        assertInstanceOf(GraphException.class, e);
        assertTrue(e.getMessage().matches("pass 'misuse\\.usage': compute-read of buffer 'noStorage' needs VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, .*"),
                e::getMessage);
        node.close();
        noStorage.close();
    }

    @Test
    void aReduceNodeForNoFloatsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> runtime.reduceNode("misuse.none", ReduceOp.SUM, 0));
        assertEquals("reduceNode 'misuse.none': maxCount 0; a node reduces at least 1 float", e.getMessage());
    }

    @Test
    void diagnosticsAfterCloseReportWhatWasNeverClosed() {
        // A Tally of its own: the buffer left open is the leak under test.
        Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache)), List.of());
        Diagnostics d = tally.diagnostics();
        tally.createBuffer("misuse.leaked", 1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
        long before = d.liveAllocations();
        assertTrue(before >= 1, "the buffer is live: " + before);
        tally.close();
        assertEquals(before, d.liveAllocations(), "after close: what was still live when Tally closed");
        assertTrue(d.liveAllocationBytes() >= 1024);
        assertTrue(d.validationErrors() >= 1, "the leak is reported as an error at close");
    }
}

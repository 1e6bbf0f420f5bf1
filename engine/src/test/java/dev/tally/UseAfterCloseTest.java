package dev.tally;

import dev.tally.internal.engine.Engine;

import dev.tally.config.Config;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * Objects used or closed after {@link Tally#close()}: each throws IllegalStateException naming itself and
 * the fix, before any native call on the destroyed device (which would crash the JVM). Objects left open
 * at Tally.close() are leaks, which the close reports; this test does not assert on that log.
 */
class UseAfterCloseTest {
    @TempDir
    static Path cache;

    private static void assertNamed(String object, Executable call) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call, object);
        assertTrue(e.getMessage().startsWith(object + " used after Tally.close()"), e::getMessage);
        if (!object.equals("Tally")) {
            assertTrue(e.getMessage().contains("close it before closing Tally"), e::getMessage);
        }
    }

    @Test
    void everyObjectUsedOrClosedAfterTallyCloseThrowsNamingItself() {
        Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache)), List.of());
        FrameCommands commands = tally.frameCommands();
        LaneCommands lanes = tally.laneCommands();
        TrackedBuffer buffer = new TrackedBuffer(Engine.of(tally).context(), "kept", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
        ReduceNode node = tally.reduceNode("late", ReduceOp.SUM, 1024);
        Frame frame = tally.beginFrame();   // still open: Tally.close() abandons it
        tally.close();

        assertNamed("FrameCommands", () -> commands.begin(frame));
        assertNamed("FrameCommands", commands::close);
        assertNamed("LaneCommands", lanes::close);
        assertNamed("buffer 'kept'", buffer::close);
        assertNamed("ReduceNode 'late'", node::close);
        assertNamed("Tally", tally::beginFrame);
        assertDoesNotThrow(tally::close, "closing Tally twice is harmless");
    }

    /**
     * A kernel or a command pool set left open is named in one line and closed by Tally.close, before the device goes:
     * the layer then has nothing of its own to say (before, it reported the pipeline, its layouts, set and pool, and the
     * pools, by raw handle).
     */
    @Test
    void kernelsAndCommandPoolsLeftOpenAreNamedAndClosedAtTallyClose() {
        Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache)), List.of());
        var log = Engine.of(tally).context().validationLog();
        dev.tally.shader.ComputeKernel kernel = tally.computeKernel("test_fill.comp", java.util.Map.of(),
                List.of(dev.tally.shader.BindingType.STORAGE_BUFFER), 12);
        tally.frameCommands();
        tally.close();
        assertEquals(List.of("error: tally: 2 object(s) not closed before Tally.close, closed there: computeKernel 'test_fill.comp', frameCommands;"
                + " close what Tally made before closing Tally"), log.messages());
        assertDoesNotThrow(kernel::close, "closed once, by Tally: a second close is harmless");
    }

    @Test
    void objectsClosedBeforeTallyCloseMayBeClosedAgainAfterIt() {
        Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache)), List.of());
        TrackedBuffer buffer = new TrackedBuffer(Engine.of(tally).context(), "closed", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
        ReduceNode node = tally.reduceNode("closed", ReduceOp.SUM, 1024);
        buffer.close();
        node.close();
        var log = Engine.of(tally).context().validationLog();
        tally.close();
        assertDoesNotThrow(buffer::close);
        assertDoesNotThrow(node::close);
        assertEquals(0, log.total(), () -> "nothing leaked: " + log.messages());
    }
}

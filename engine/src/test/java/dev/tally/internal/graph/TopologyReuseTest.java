package dev.tally.internal.graph;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_FORMAT_R8G8B8A8_UNORM;
import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_STORAGE_BIT;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.PassKind;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.Access;

import dev.tally.internal.vk.ResourceState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The runtime reuses a compiled plan for a frame of the last recorded frame's topology, and compiles again for a frame
 * that differs in anything the plan depends on: a description, an access, a final access, a pass's kind or its uses.
 */
class TopologyReuseTest {
    /** One frame's shape: a transient buffer (and, from a compute pass, a transient image) written by a pass and read by a second into an import. */
    private record Shape(long transientBytes, Access read, Access finalAccess, PassKind firstKind, boolean extraRead, int imageWidth) {
        static final Shape BASE = new Shape(256, Access.COMPUTE_READ, Access.HOST_READ, PassKind.COMPUTE, false, 16);

        Shape(long transientBytes, Access read, Access finalAccess, PassKind firstKind, boolean extraRead) {
            this(transientBytes, read, finalAccess, firstKind, extraRead, 16);
        }
    }

    private static void declare(GraphDeclaration g, Shape s) {
        BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, s.finalAccess());
        BufferDesc desc = new BufferDesc(s.transientBytes(), BufferDesc.DEFAULT_USAGE | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);   // read as storage or uniform
        ImageHandle[] image = {null};
        BufferHandle t = g.addPass("make", s.firstKind(), b -> {
            if (s.firstKind() == PassKind.COMPUTE) {
                image[0] = b.write(b.create("image", new ImageDesc(s.imageWidth(), 16, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT)),
                        Access.COMPUTE_WRITE);
            }
            return b.write(b.create("t", desc), s.firstKind() == PassKind.TRANSFER ? Access.TRANSFER_DST : Access.COMPUTE_WRITE);
        }, Planning.nothing());
        g.addPass("use", PassKind.COMPUTE, b -> {
            b.read(t, s.read());
            if (image[0] != null) {
                b.read(image[0], Access.COMPUTE_READ);
            }
            if (s.extraRead()) {
                b.read(out, Access.COMPUTE_READ);
            }
            return b.write(out, Access.COMPUTE_WRITE);
        }, Planning.nothing());
    }

    @Test
    void aFrameLikeTheLastReusesItsPlanAndAnyDifferenceCompilesAgain() {
        GraphRuntime runtime = new GraphRuntime(new NoOpBackend(2), false);
        long[] frame = {0};
        java.util.function.Consumer<Shape> one = s -> {
            GraphDeclaration g = runtime.begin(frame[0], frame[0] + 1);
            frame[0]++;
            declare(g, s);
            runtime.record(g, null);
        };
        one.accept(Shape.BASE);
        one.accept(Shape.BASE);
        one.accept(Shape.BASE);
        assertEquals(1, runtime.compiles(), "the same topology three frames running: compiled once");
        assertEquals(1, runtime.topologyLookups(), "the second and third frames take the topology the first acquired, without a map lookup");
        Shape[] changed = {
                new Shape(512, Access.COMPUTE_READ, Access.HOST_READ, PassKind.COMPUTE, false),           // a description
                new Shape(256, Access.COMPUTE_UNIFORM, Access.HOST_READ, PassKind.COMPUTE, false),        // an access
                new Shape(256, Access.COMPUTE_READ, null, PassKind.COMPUTE, false),                       // a final access
                new Shape(256, Access.COMPUTE_READ, Access.HOST_READ, PassKind.TRANSFER, false),          // a pass's kind
                new Shape(256, Access.COMPUTE_READ, Access.HOST_READ, PassKind.COMPUTE, true),            // a pass's uses
                new Shape(256, Access.COMPUTE_READ, Access.HOST_READ, PassKind.COMPUTE, false, 32),       // an image's description
        };
        long compiles = 1;
        for (Shape s : changed) {
            long lookups = runtime.topologyLookups();
            one.accept(s);
            assertEquals(++compiles, runtime.compiles(), "a frame differing from the last by " + s + " is compiled, not given its plan");
            one.accept(Shape.BASE);   // back to the first shape: its plan is still cached
            assertEquals(compiles, runtime.compiles(), "the first shape again, after " + s + ": its cached plan");
            assertEquals(lookups + 2, runtime.topologyLookups(), "the changed frame and the one back to the first shape each look theirs up");
            one.accept(Shape.BASE);
            assertEquals(lookups + 2, runtime.topologyLookups(), "the first shape twice running: the second takes the last acquired");
        }
        runtime.close();
    }
}

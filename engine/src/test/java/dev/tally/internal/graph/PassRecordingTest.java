package dev.tally.internal.graph;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.GraphException;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.ResourceState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A pass's execute step gets the resources its setup declared, and a one-line error naming the pass and the resource for
 * one it did not, whichever position the use has among the pass's uses. No GPU.
 */
class PassRecordingTest {
    @Test
    void anExecuteStepGetsWhatItsSetupDeclaredAndIsRefusedWhatItDidNot() {
        GraphRuntime runtime = new GraphRuntime(new NoOpBackend(2), false);
        int[] asked = {0};
        for (int frame = 0; frame < 3; frame++) {
            GraphDeclaration g = runtime.begin(frame, frame + 1);
            BufferHandle a = Planning.importBuffer(g, "a", 64, ResourceState.UNUSED, null);
            BufferHandle b = Planning.importBuffer(g, "b", 64, ResourceState.UNUSED, null);
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
            g.addPass("p", PassKind.COMPUTE, s -> {
                s.read(a, Access.COMPUTE_READ);
                s.read(b, Access.COMPUTE_READ);
                return s.write(out, Access.COMPUTE_WRITE);
            }, (written, c) -> {
                c.buffer(a);
                c.buffer(b);
                c.buffer(written);
                asked[0]++;
            });
            runtime.record(g, null);
        }
        assertEquals(3, asked[0], "frames whose execute step got every resource its setup declared");

        GraphDeclaration g = runtime.begin(3, 4);
        BufferHandle a = Planning.importBuffer(g, "a", 64, ResourceState.UNUSED, null);
        BufferHandle undeclared = Planning.importBuffer(g, "b", 64, ResourceState.UNUSED, null);
        BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
        g.addPass("p", PassKind.COMPUTE, s -> {
            s.read(a, Access.COMPUTE_READ);
            return s.write(out, Access.COMPUTE_WRITE);
        }, (written, c) -> c.buffer(undeclared));
        GraphException e = assertThrows(GraphException.class, () -> runtime.record(g, null));
        assertEquals("pass 'p' uses 'b' in its execute step but did not declare it in its setup", e.getMessage());
        runtime.close();
    }

    /**
     * A pooled pass keeps its last execute step and data until its setup returns new ones: a setup that throws, an Error as
     * well as an exception, leaves the frame refusing to be recorded, and the earlier frame's step never runs for it.
     */
    @Test
    void aSetupThatThrowsAnErrorLeavesTheFrameUnrecordable() {
        GraphRuntime runtime = new GraphRuntime(new NoOpBackend(2), false);
        int[] ran = {0};
        for (int frame = 0; frame < 3; frame++) {
            GraphDeclaration g = runtime.begin(frame, frame + 1);
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
            boolean failing = frame == 2;
            Runnable declare = () -> g.addPass("p", PassKind.COMPUTE, s -> {
                if (failing) {
                    throw new AssertionError("setup broke");
                }
                return s.write(out, Access.COMPUTE_WRITE);
            }, (written, c) -> ran[0]++);
            if (!failing) {
                declare.run();
                runtime.record(g, null);
                continue;
            }
            assertThrows(AssertionError.class, declare::run);
            GraphException e = assertThrows(GraphException.class, () -> runtime.record(g, null));
            assertEquals("pass 'p': its setup failed, so this frame graph is incomplete; declare the frame again", e.getMessage());
        }
        assertEquals(2, ran[0], "execute steps run: one for each frame whose setup returned");
        runtime.close();
    }
}

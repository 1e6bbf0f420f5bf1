package dev.tally.internal.graph;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.ResourceState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A graph's pass, resource and use lists are refilled every frame without writing a slot that already holds the object
 * going into it: a frame that declares what the last one declared writes none (each write into an old object costs the
 * collector's write barrier), and a frame that declares something else writes where it differs. No GPU.
 */
class ReusedSlotsTest {
    @Test
    void aClearedListIsEmptyAndRefillsInOrder() {
        ReusedSlots<String> list = new ReusedSlots<>(1);
        String a = "a", b = "b", c = "c";
        list.add(a);
        list.add(b);
        list.add(c);   // past the first capacity: the slots grow
        assertEquals(List.of("a", "b", "c"), list);
        assertEquals(3, list.writes());
        list.clear();
        assertEquals(0, list.size());
        assertThrows(IndexOutOfBoundsException.class, () -> list.get(0), "a slot past the size is not in the list, whatever it keeps");
        list.add(a);
        list.add(c);
        assertEquals(List.of("a", "c"), list);
        assertEquals(4, list.writes(), "the same object into its slot again writes nothing; another object writes its slot");
    }

    @Test
    void aFrameThatRepeatsTheLastWritesNoSlotAndAChangedOneWritesWhereItDiffers() {
        GraphRuntime runtime = new GraphRuntime(new NoOpBackend(2), false);
        long[] frame = {0};
        java.util.function.IntToLongFunction one = reads -> {
            GraphDeclaration g = runtime.begin(frame[0], frame[0] + 1);
            frame[0]++;
            long before = writes(g);
            declare(g, reads);
            long written = writes(g) - before;
            runtime.record(g, null);
            return written;
        };
        for (int f = 0; f < 4; f++) {
            one.applyAsLong(1);   // the graphs' pools, lists and uses made
        }
        assertEquals(0, one.applyAsLong(1), "slots written by a frame that declares what the last ones declared");
        assertEquals(0, one.applyAsLong(1), "slots written by a frame that declares what the last ones declared");
        long changed = one.applyAsLong(2);
        assertTrue(changed > 0, "a frame whose last pass reads one more resource writes that pass's uses: " + changed);
        runtime.close();
    }

    /** Slots written so far in the lists of {@code g} and of every pass it holds (the pool's, declared this frame or not). */
    private static long writes(GraphDeclaration g) {
        long n = ((ReusedSlots<?>) g.passes).writes() + ((ReusedSlots<?>) g.resources).writes();
        for (int p = 0; p < 8; p++) {
            Pass pass = g.pooledPass(p);
            if (pass != null) {
                n += ((ReusedSlots<?>) pass.uses).writes() + ((ReusedSlots<?>) pass.attachments).writes();
            }
        }
        return n;
    }

    /** Two passes: a transient written, then read with {@code reads} imports into an output. */
    private static void declare(GraphDeclaration g, int reads) {
        BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
        BufferHandle extra = Planning.importBuffer(g, "extra", 64, ResourceState.UNUSED, null);
        BufferHandle t = g.addPass("make", PassKind.COMPUTE, b -> b.write(b.create("t", new BufferDesc(256, BufferDesc.DEFAULT_USAGE)),
                Access.COMPUTE_WRITE), Planning.nothing());
        g.addPass("use", PassKind.COMPUTE, b -> {
            b.read(t, Access.COMPUTE_READ);
            if (reads > 1) {
                b.read(extra, Access.COMPUTE_READ);
            }
            return b.write(out, Access.COMPUTE_WRITE);
        }, Planning.nothing());
    }
}

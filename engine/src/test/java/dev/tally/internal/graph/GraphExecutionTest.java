package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Frames executed with no GPU on a {@link RecordingBackend}: what the runtime records, in which order,
 * and what it keeps from frame to frame (compiled topologies, transient objects, where memory slots were
 * left), checked on the calls that reached the backend.
 */
class GraphExecutionTest {
    /** make (compute, writes transient t) -> copy (transfer, reads t, writes the import "out"); "unused" is culled. */
    private static GraphDeclaration declare(Planning planning) {
        GraphDeclaration g = planning.next();
        BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
        BufferHandle t = g.addPass("make", PassKind.COMPUTE, s -> s.write(s.create("t", BufferDesc.of(64)), Access.COMPUTE_WRITE),
                Planning.nothing());
        g.addPass("unused", PassKind.COMPUTE, s -> s.write(s.create("ignored", BufferDesc.of(64)), Access.COMPUTE_WRITE), Planning.culled());
        g.addPass("copy", PassKind.TRANSFER, s -> {
            s.read(t, Access.TRANSFER_SRC);
            return s.write(out, Access.TRANSFER_DST);
        }, Planning.nothing());
        return g;
    }

    private static BarrierSpec barrierOf(List<BarrierSpec> list, GraphDeclaration g, String resource) {
        for (BarrierSpec b : list) {
            if (g.resources.get(b.resource()).name.equals(resource)) {
                return b;
            }
        }
        return null;
    }

    @Test
    void passesRunInPlanOrderEachInsideItsLabelAndCulledPassesNever() {
        Planning planning = new Planning();
        List<String> ran = new ArrayList<>();
        GraphDeclaration g = planning.next();
        BufferHandle a = g.addPass("a", PassKind.COMPUTE, s -> s.write(s.create("x", BufferDesc.of(16)), Access.COMPUTE_WRITE),
                (h, c) -> ran.add("a"));
        g.addPass("dead", PassKind.COMPUTE, s -> s.write(s.create("y", BufferDesc.of(16)), Access.COMPUTE_WRITE), Planning.culled());
        g.addPass("b", PassKind.COMPUTE, s -> {
            s.sideEffect();
            return s.read(a, Access.COMPUTE_READ);
        }, (h, c) -> ran.add("b"));
        Planning.Executed e = Planning.executed(g);
        assertEquals(List.of("a", "b"), e.passes(), "labels in plan order, none for the culled pass");
        assertEquals(List.of("a", "b"), ran, "each live pass executed once, in order");
        // Every pass is bracketed by its label: barriers before, barriers after, the label ends.
        List<Class<?>> shape = new ArrayList<>();
        e.calls().forEach(c -> shape.add(c.getClass()));
        assertEquals(List.of(RecordingBackend.Barriers.class,
                RecordingBackend.Label.class, RecordingBackend.Barriers.class, RecordingBackend.Barriers.class, RecordingBackend.EndLabel.class,
                RecordingBackend.Label.class, RecordingBackend.Barriers.class, RecordingBackend.Barriers.class, RecordingBackend.EndLabel.class,
                RecordingBackend.Barriers.class, RecordingBackend.Barriers.class), shape, e.calls().toString());
        BarrierSpec raw = barrierOf(e.before("b"), g, "x");
        assertNotNull(raw, "b reads what a wrote: a barrier before b");
        assertEquals(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, raw.srcStages());
        assertEquals(VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, raw.srcAccess());
        assertEquals(VK_ACCESS_2_SHADER_STORAGE_READ_BIT, raw.dstAccess());
    }

    @Test
    void aSteadyTopologyCompilesOnceReusesItsTransientsAndCarriesSlotStatesAcrossFrames() {
        Planning planning = new Planning();
        Planning.Executed first = Planning.executed(declare(planning));
        assertNull(barrierOf(first.before("make"), first.g(), "t"), "frame 0: the slot is untouched, nothing to wait for");
        Object t0 = null;
        for (int f = 1; f < 5; f++) {
            Planning.Executed e = Planning.executed(declare(planning));
            assertEquals(List.of("make", "copy"), e.passes());
            // The slot was left written by the last frame's make and read by its copy: this frame's write waits for both.
            BarrierSpec war = barrierOf(e.before("make"), e.g(), "t");
            assertNotNull(war, "frame " + f + ": the first write waits for the previous frame's use of the slot");
            assertEquals(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, war.srcStages());
            assertEquals(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, war.dstStages());
            Object t = objectBehind(e, war);
            assertInstanceOf(RecordingBackend.Fake.class, t, "the barrier names the transient's object");
            if (t0 == null) {
                t0 = t;
            }
            assertSame(t0, t, "frame " + f + " records into the same transient object");
        }
        assertEquals(1, planning.runtime.transientObjectsCreated(), "one object for the one live transient, made once");
        assertEquals(1, planning.runtime.compiles(), "one compile for five frames of one topology");
        assertEquals(1, planning.backend.transientSets, "transient memory created once");
        assertEquals(2, planning.runtime.barrierPlans(), "barriers planned for the untouched slot, then for the slot left read");
        assertEquals(0, planning.backend.transientSetsReleased);
    }

    /** The object the backend was given for barrier {@code b}. */
    private static Object objectBehind(Planning.Executed e, BarrierSpec b) {
        for (RecordingBackend.Call c : e.calls()) {
            if (c instanceof RecordingBackend.Barriers list && list.specs().contains(b)) {
                return list.objects().get(list.specs().indexOf(b));
            }
        }
        throw new AssertionError("barrier " + b + " was not recorded");
    }

    @Test
    void poisonFillsEachTransientBeforeItsFirstUseAndLaysMemoryOutAnew() {
        Planning planning = new Planning();
        Planning.executed(declare(planning));
        planning.runtime.debugPoisonTransients(true);
        Planning.Executed e = Planning.executed(declare(planning));
        List<Object> poisoned = new ArrayList<>();
        int label = -1, poison = -1, before = -1;
        for (int i = 0; i < e.calls().size(); i++) {
            RecordingBackend.Call c = e.calls().get(i);
            if (c instanceof RecordingBackend.Label l && l.pass().equals("make")) {
                label = i;
            } else if (c instanceof RecordingBackend.Poison p) {
                poisoned.add(p.object());
                poison = i;
            } else if (c instanceof RecordingBackend.Barriers && label >= 0 && before < 0 && i > label) {
                before = i;
            }
        }
        assertEquals(1, poisoned.size(), "one live transient, poisoned once");
        assertEquals("t", ((RecordingBackend.Fake) poisoned.get(0)).name());
        assertTrue(label < poison && poison < before, "poisoned inside its first pass's label, before that pass's barriers: " + e.calls());
        BarrierSpec widened = barrierOf(e.before("make"), e.g(), "t");
        assertEquals(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, widened.srcStages(), "the first-use barrier follows the fill");
        assertEquals(2, planning.backend.transientSets, "poisoning needs TRANSFER_DST usage: the transients are laid out anew");
        assertEquals(1, planning.backend.transientSetsReleased, "and the old ones released");
    }

    @Test
    void graphicsPassesRenderTheirAttachmentsExtentAndTimedFramesWriteTwoTimestampsPerPassReadFromCopiedMemory() {
        Planning planning = new Planning();
        planning.backend.timestampCapacity = FrameTimings.slotCount(2) * 2 * FrameTimings.MAX_TIMED_PASSES;
        GraphDeclaration g = planning.next();
        ImageHandle target = Planning.importImage(g, "target", ImageDesc.of(40, 30, VK_FORMAT_R8G8B8A8_UNORM), ResourceState.UNUSED, null);
        g.addPass("draw", PassKind.GRAPHICS, s -> s.colorAttachment(target, new float[]{0, 0, 0, 1}), Planning.nothing());
        Planning.Executed e = Planning.executed(g);
        List<RecordingBackend.Call> calls = e.calls();
        assertTrue(calls.contains(new RecordingBackend.BeginRendering("draw", 40, 30)), calls.toString());
        int begin = calls.indexOf(new RecordingBackend.BeginRendering("draw", 40, 30));
        assertEquals(new RecordingBackend.EndRendering(), calls.get(begin + 1), "the pass recorded nothing between begin and end");
        assertEquals(new RecordingBackend.Timestamp(0), calls.get(begin - 1), "the pass's start timestamp, just before rendering");
        assertEquals(new RecordingBackend.Timestamp(1), calls.get(begin + 2), "its end timestamp, just after");
        assertTrue(calls.contains(new RecordingBackend.ResetTimestamps(0, 2)), "the frame's two queries reset first");
        assertTrue(calls.indexOf(new RecordingBackend.CopyTimestamps(0, 2)) > begin + 2,
                "after its last timestamp, the frame copies its queries to host memory: " + calls);

        planning.backend.completed = g.timelineValue();   // the frame finished on the "GPU"
        planning.runtime.collectTimings();
        assertEquals(1, planning.runtime.stats().samples("draw"), "the pass's time was read back");
        assertEquals(1, planning.backend.copiedReads, "read from the memory the frame copied them into");
        assertEquals(0, planning.backend.driverReads, "no query read through the driver, which blocks on some while the device works");
        assertEquals(1.0, planning.runtime.stats().latestMicros("draw"), 1e-9, "queries 0 and 1 are 1000 ticks (1 us) apart");
    }
}

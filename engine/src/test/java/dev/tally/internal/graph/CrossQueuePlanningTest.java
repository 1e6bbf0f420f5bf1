package dev.tally.internal.graph;
import dev.tally.graph.PassContext;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import dev.tally.graph.AsyncMode;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Planning for two queues without a GPU (chains executed on a {@link RecordingBackend}): which lane each pass runs on, the batches with their waits and
 * signals, queue-family ownership transfers (release on the source lane, acquire on the destination) or
 * none for a second queue of one family, the join at the end of the frame, and injected pass orders.
 */
class CrossQueuePlanningTest {
    private static final long ALL = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;

    /** A pass's execute step: chains are executed on a backend with no GPU, and the pass records nothing. */
    private static <T> BiConsumer<T, PassContext> recordsNothing() {
        return Planning.nothing();
    }

    /** scene (graphics) -> histogram (async compute, reads the scene) -> exposure (async, writes a history) -> tonemap (graphics). */
    private static final class Chain {
        final Planning planning = new Planning();
        final GraphDeclaration g = planning.next();
        final ImageHandle hdr;
        final BufferHandle histogram;
        final BufferHandle exposure;
        final ImageHandle out;

        Chain() {
            ImageHandle target = g.createImage("hdr", ImageDesc.of(64, 64, VK_FORMAT_R16G16B16A16_SFLOAT));
            hdr = g.addPass("scene", PassKind.GRAPHICS, s -> s.colorAttachment(target, new float[]{0, 0, 0, 1}), recordsNothing());
            histogram = g.addPass("histogram", PassKind.COMPUTE, s -> {
                s.asyncCompute();
                s.read(hdr, Access.COMPUTE_SAMPLED);
                return s.write(s.create("bins", BufferDesc.of(1024)), Access.COMPUTE_WRITE);
            }, recordsNothing());
            GraphDeclaration.History h = Planning.history(g, "exposure", 16, ResourceState.after(Access.COMPUTE_WRITE),
                    ResourceState.after(Access.COMPUTE_READ));
            exposure = g.addPass("exposure", PassKind.COMPUTE, s -> {
                s.asyncCompute();
                s.read(histogram, Access.COMPUTE_READ);
                s.read(h.previous(), Access.COMPUTE_READ);
                return s.write(h.current(), Access.COMPUTE_WRITE);
            }, recordsNothing());
            ImageHandle display = Planning.importImage(g, "display", ImageDesc.of(64, 64, VK_FORMAT_R8G8B8A8_UNORM), ResourceState.UNUSED, Access.PRESENT);
            out = g.addPass("tonemap", PassKind.GRAPHICS, s -> {
                s.read(hdr, Access.FRAGMENT_SAMPLED);
                s.read(exposure, Access.GRAPHICS_READ);
                return s.colorAttachment(display, null);
            }, recordsNothing());
        }

        /**
         * Executes the chain in batches on {@code queues}, its async candidates on the async lane or not (AUTO's
         * first frame keeps them on the main lane): the lanes, batches and barriers are those recorded.
         */
        Planned plan(QueueLanes queues, boolean async) {
            planning.backend.twoLanes = queues;
            planning.runtime.configureAsync(queues.lanes() == 1 ? AsyncMode.OFF : async ? AsyncMode.ON : AsyncMode.AUTO, true);
            Planning.Executed e = Planning.executedInBatches(g);
            assertEquals(queues, planning.runtime.queueLanes(), "premise: the runtime plans for the lanes asked for");
            return new Planned(g, e.plan(), planning.runtime.lastLanes(), e.barriers());
        }
    }

    private record Planned(GraphDeclaration g, GraphPlan plan, int[] lanes, BarrierPlanner.Barriers barriers) {
        int pos(String pass) {
            for (int i = 0; i < plan.order().size(); i++) {
                if (g.passes.get(plan.order().get(i)).name.equals(pass)) {
                    return i;
                }
            }
            throw new AssertionError("pass '" + pass + "' not in the plan");
        }

        int lane(String pass) {
            return lanes[pos(pass)];
        }

        List<BarrierSpec> before(String pass) {
            return barriers.beforePass().get(pos(pass));
        }

        List<BarrierSpec> after(String pass) {
            return barriers.afterPass().get(pos(pass));
        }

        QueueBatch batchOf(String pass) {
            int p = pos(pass);
            for (QueueBatch b : barriers.batches()) {
                if (p >= b.firstPos() && p < b.endPos()) {
                    return b;
                }
            }
            throw new AssertionError("pass '" + pass + "' is in no batch: " + barriers.batches());
        }

        BarrierSpec only(List<BarrierSpec> list, Handle h) {
            List<BarrierSpec> found = list.stream().filter(b -> b.resource() == h.resource()).toList();
            assertEquals(1, found.size(), () -> "one barrier for resource #" + h.resource() + " in " + list);
            return found.get(0);
        }
    }

    private static void assertOwnership(BarrierSpec b, int from, int to, int oldLayout, int newLayout) {
        assertAll(b.toString(),
                () -> assertTrue(b.ownershipTransfer(), "an ownership transfer"),
                () -> assertEquals(from, b.fromLane(), "from lane"),
                () -> assertEquals(to, b.toLane(), "to lane"),
                () -> assertEquals(b.image() ? oldLayout : VK_IMAGE_LAYOUT_UNDEFINED, b.image() ? b.oldLayout() : VK_IMAGE_LAYOUT_UNDEFINED,
                        "old layout (images only)"),
                () -> assertEquals(b.image() ? newLayout : VK_IMAGE_LAYOUT_UNDEFINED, b.image() ? b.newLayout() : VK_IMAGE_LAYOUT_UNDEFINED,
                        "new layout (images only)"));
    }

    /** Submission order is legal: every wait names an earlier batch on the other lane, which signals. */
    private static void assertBatchesWellFormed(List<QueueBatch> batches, int passes) {
        int covered = 0;
        for (QueueBatch b : batches) {
            assertEquals(covered, b.firstPos(), () -> "batches cover the order without gaps: " + batches);
            covered = b.endPos();
            for (int w : b.waits()) {
                assertTrue(w < b.index(), () -> "batch " + b.index() + " waits for a later batch " + w + ": " + batches);
                assertNotEquals(b.lane(), batches.get(w).lane(), () -> "a wait on the same lane is useless: " + batches);
                assertTrue(batches.get(w).signals(), () -> "batch " + w + " is waited for but signals nothing: " + batches);
            }
        }
        assertEquals(passes, covered, "every pass is in a batch");
        assertEquals(QueueLanes.MAIN, batches.get(0).lane(), "the first batch is on the main lane");
        assertEquals(QueueLanes.MAIN, batches.get(batches.size() - 1).lane(), "the last batch is on the main lane");
    }

    @Test
    void taggedComputePassesGoToTheAsyncLaneOnlyWhenThereIsOne() {
        Planned two = new Chain().plan(QueueLanes.SAME_FAMILY, true);
        assertEquals(QueueLanes.ASYNC, two.lane("histogram"));
        assertEquals(QueueLanes.ASYNC, two.lane("exposure"));
        assertEquals(QueueLanes.MAIN, two.lane("scene"));
        assertEquals(QueueLanes.MAIN, two.lane("tonemap"));
        Planned one = new Chain().plan(QueueLanes.ONE, true);
        for (int l : one.lanes()) {
            assertEquals(QueueLanes.MAIN, l);
        }
        Planned off = new Chain().plan(QueueLanes.OTHER_FAMILY, false);
        for (int l : off.lanes()) {
            assertEquals(QueueLanes.MAIN, l, "placement said no: main lane");
        }
    }

    @Test
    void onlyComputePassesMayAskForTheAsyncQueue() {
        GraphDeclaration g = Planning.graph();
        ImageHandle img = g.createImage("target", ImageDesc.of(8, 8, VK_FORMAT_R8G8B8A8_UNORM));
        GraphException e = assertThrows(GraphException.class, () -> g.addPass("draw", PassKind.GRAPHICS, s -> {
            s.asyncCompute();
            return s.colorAttachment(img, null);
        }, recordsNothing()));
        assertTrue(e.getMessage().contains("'draw'"), e.getMessage());
    }

    @Test
    void oneLaneGivesExactlyTheSingleQueuePlan() {
        Chain c = new Chain();
        GraphPlan p = c.g.compile();
        BarrierPlanner.Barriers single = BarrierPlanner.plan(c.g, p, s -> ResourceState.UNUSED);
        Planned onOneQueue = c.plan(QueueLanes.ONE, true);
        assertEquals(single.beforePass(), onOneQueue.barriers().beforePass());
        assertEquals(single.epilogue(), onOneQueue.barriers().epilogue());
        assertEquals(1, onOneQueue.barriers().batches().size(), "one batch");
        QueueBatch b = onOneQueue.barriers().batches().get(0);
        assertEquals(List.of(), b.waits());
        assertFalse(b.signals());
        assertTrue(onOneQueue.barriers().prologue().isEmpty());
        assertTrue(onOneQueue.barriers().join().isEmpty());
        onOneQueue.barriers().afterPass().forEach(l -> assertTrue(l.isEmpty()));
        // Lanes all on the main lane, even with two queues: the same plan again.
        Planned off = new Chain().plan(QueueLanes.OTHER_FAMILY, false);
        assertEquals(single.beforePass().toString(), off.barriers().beforePass().toString());
        assertEquals(1, off.barriers().batches().size());
    }

    @Test
    void otherFamilyTransfersOwnershipWithReleaseOnTheSourceAndAcquireOnTheDestination() {
        Chain c = new Chain();
        Planned p = c.plan(QueueLanes.OTHER_FAMILY, true);
        // hdr: written as a colour attachment on the main lane, sampled on the async lane.
        BarrierSpec release = p.only(p.after("scene"), c.hdr);
        assertOwnership(release, QueueLanes.MAIN, QueueLanes.ASYNC, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        assertEquals(VK_PIPELINE_STAGE_2_NONE, release.dstStages(), "a release has no destination scope on its queue");
        BarrierSpec acquire = p.only(p.before("histogram"), c.hdr);
        assertOwnership(acquire, QueueLanes.MAIN, QueueLanes.ASYNC, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        assertEquals(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, acquire.dstStages());
        assertEquals(VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, acquire.dstAccess());
        // The exposure (history, written on the async lane) comes back for the tonemap's read.
        BarrierSpec back = p.only(p.after("exposure"), c.exposure);
        assertOwnership(back, QueueLanes.ASYNC, QueueLanes.MAIN, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        BarrierSpec backAcquire = p.only(p.before("tonemap"), c.exposure);
        assertOwnership(backAcquire, QueueLanes.ASYNC, QueueLanes.MAIN, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        assertEquals(Access.GRAPHICS_READ.stages(), backAcquire.dstStages());
        // hdr is still owned by the async lane's family when the tonemap samples it: transferred back too.
        BarrierSpec hdrBack = p.only(p.before("tonemap"), c.hdr);
        assertOwnership(hdrBack, QueueLanes.ASYNC, QueueLanes.MAIN, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        // The histogram's bins live and die on the async lane: no transfer.
        for (List<BarrierSpec> l : p.barriers().afterPass()) {
            assertTrue(l.stream().noneMatch(b -> b.resource() == c.histogram.resource()), "bins never leave the async lane: " + l);
        }
    }

    @Test
    void everyReleaseHasItsAcquireOnTheOtherLaneInALaterBatchThatWaitsForIt() {
        Planned p = new Chain().plan(QueueLanes.OTHER_FAMILY, true);
        List<QueueBatch> batches = p.barriers().batches();
        int releases = 0;
        for (int pos = 0; pos < p.plan().order().size(); pos++) {
            for (BarrierSpec rel : p.barriers().afterPass().get(pos)) {
                releases++;
                assertEquals(p.lanes()[pos], rel.fromLane(), "released on the lane that last used it");
                int relBatch = batchAt(batches, pos);
                boolean acquired = false;
                for (int later = pos + 1; later < p.plan().order().size(); later++) {
                    for (BarrierSpec acq : p.barriers().beforePass().get(later)) {
                        if (acq.resource() == rel.resource() && acq.ownershipTransfer() && !acquired) {
                            acquired = true;
                            assertEquals(rel.toLane(), p.lanes()[later], "acquired on the destination lane");
                            assertEquals(rel.oldLayout(), acq.oldLayout());
                            assertEquals(rel.newLayout(), acq.newLayout());
                            assertTrue(batches.get(batchAt(batches, later)).waits().stream().anyMatch(w -> w >= relBatch),
                                    () -> "the acquiring batch waits for the releasing one: " + batches);
                        }
                    }
                }
                if (!acquired) {
                    // Returned at the end of the frame: acquired by the join in the last batch, which waits for the async lane's last.
                    acquired = p.barriers().join().stream().anyMatch(j -> j.resource() == rel.resource() && j.ownershipTransfer()
                            && j.fromLane() == rel.fromLane() && j.toLane() == rel.toLane());
                    assertTrue(batches.get(batches.size() - 1).waits().stream().anyMatch(w -> w >= relBatch));
                }
                assertTrue(acquired, () -> "release of #" + rel.resource() + " without acquire");
            }
        }
        // hdr there and back; the exposure history's current copy back for the tonemap, its previous copy back at the join.
        assertEquals(4, releases, () -> "releases: " + p.barriers().afterPass());
    }

    private static int batchAt(List<QueueBatch> batches, int pos) {
        for (QueueBatch b : batches) {
            if (pos >= b.firstPos() && pos < b.endPos()) {
                return b.index();
            }
        }
        throw new AssertionError(pos + " in no batch");
    }

    @Test
    void sameFamilyNeedsNoOwnershipTransferButTheSameWaits() {
        Planned other = new Chain().plan(QueueLanes.OTHER_FAMILY, true);
        Planned same = new Chain().plan(QueueLanes.SAME_FAMILY, true);
        for (List<BarrierSpec> l : same.barriers().beforePass()) {
            assertTrue(l.stream().noneMatch(BarrierSpec::ownershipTransfer), "no transfer within a family: " + l);
        }
        same.barriers().afterPass().forEach(l -> assertTrue(l.isEmpty(), "nothing to release: " + l));
        assertTrue(same.barriers().join().stream().noneMatch(BarrierSpec::ownershipTransfer));
        assertEquals(other.barriers().batches(), same.barriers().batches(), "semaphores do not depend on the families");
        // The layout change still happens, on the lane that needs it, ordered after everything before it.
        BarrierSpec b = same.only(same.before("histogram"), new Chain().hdr);
        assertEquals(ALL, b.srcStages());
        assertEquals(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, b.oldLayout());
        assertEquals(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, b.newLayout());
    }

    @Test
    void batchesRunPerLaneWithTimelineWaitsAndSignalsBetweenThem() {
        Planned p = new Chain().plan(QueueLanes.OTHER_FAMILY, true);
        List<QueueBatch> batches = p.barriers().batches();
        assertBatchesWellFormed(batches, p.plan().order().size());
        assertEquals(3, batches.size(), "scene | histogram, exposure | tonemap: " + batches);
        QueueBatch scene = p.batchOf("scene"), async = p.batchOf("histogram"), tonemap = p.batchOf("tonemap");
        assertSame(async, p.batchOf("exposure"), "consecutive async passes share a batch");
        assertEquals(QueueLanes.ASYNC, async.lane());
        assertEquals(List.of(scene.index()), async.waits(), "the async batch waits for the scene");
        assertEquals(List.of(async.index()), tonemap.waits(), "the tonemap waits for the exposure");
        assertTrue(scene.signals());
        assertTrue(async.signals());
        assertFalse(tonemap.signals(), "the last batch signals only the frame's own value, which the frame adds");
    }

    @Test
    void writeAfterTheOtherLanesReadWaitsForIt() {
        GraphDeclaration g = Planning.graph();
        BufferHandle data = Planning.importBuffer(g, "data", 256, ResourceState.after(Access.COMPUTE_WRITE), null);
        g.addPass("async-read", PassKind.COMPUTE, s -> {
            s.asyncCompute();
            s.sideEffect();
            return s.read(data, Access.COMPUTE_READ);
        }, recordsNothing());
        g.addPass("main-write", PassKind.COMPUTE, s -> s.write(data, Access.COMPUTE_WRITE), recordsNothing());
        GraphPlan plan = g.compile();
        int[] lanes = LaneAssignment.assign(g, plan, QueueLanes.SAME_FAMILY, n -> true);
        BarrierPlanner.Barriers b = BarrierPlanner.plan(g, plan, s -> ResourceState.UNUSED, lanes, QueueLanes.SAME_FAMILY);
        assertBatchesWellFormed(b.batches(), 2);
        // batch 0: empty main (the order starts on the async lane); 1: async-read; 2: main-write.
        assertEquals(3, b.batches().size(), b.batches().toString());
        assertEquals(0, b.batches().get(0).passCount(), "an empty first batch on the main lane");
        assertEquals(List.of(0), b.batches().get(1).waits(), "the async lane starts after the frame's first main batch");
        assertEquals(List.of(1), b.batches().get(2).waits(), "write after read across lanes waits for the read");
    }

    @Test
    void theFrameJoinsOnTheMainLaneAndLeavesResourcesThere() {
        Chain c = new Chain();
        Planned p = c.plan(QueueLanes.OTHER_FAMILY, true);
        List<BarrierSpec> join = p.barriers().join();
        assertTrue(join.stream().anyMatch(b -> b.aliasing() && b.srcStages() == ALL && b.dstStages() == ALL),
                "one global barrier after the wait: " + join);
        for (ResourceState s : p.barriers().finalStates()) {
            assertNotNull(s);
        }
        // A graph that ends on the async lane gets an empty main batch that waits for it.
        GraphDeclaration g = Planning.graph();
        GraphDeclaration.History h = Planning.history(g, "acc", 16, ResourceState.after(Access.COMPUTE_WRITE), ResourceState.UNUSED);
        g.addPass("accumulate", PassKind.COMPUTE, s -> {
            s.asyncCompute();
            s.read(h.previous(), Access.COMPUTE_READ);
            return s.write(h.current(), Access.COMPUTE_WRITE);
        }, recordsNothing());
        GraphPlan plan = g.compile();
        int[] lanes = LaneAssignment.assign(g, plan, QueueLanes.OTHER_FAMILY, n -> true);
        BarrierPlanner.Barriers b = BarrierPlanner.plan(g, plan, s -> ResourceState.UNUSED, lanes, QueueLanes.OTHER_FAMILY);
        assertBatchesWellFormed(b.batches(), 1);
        QueueBatch last = b.batches().get(b.batches().size() - 1);
        assertEquals(0, last.passCount());
        assertEquals(List.of(1), last.waits());
        // The history's previous copy had content at entry (main lane): released in the prologue, acquired on the async lane.
        assertEquals(1, b.prologue().size(), b.prologue().toString());
        assertOwnership(b.prologue().get(0), QueueLanes.MAIN, QueueLanes.ASYNC, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        // Both copies come back to the main lane's family for the next frame.
        Set<Integer> returned = new HashSet<>();
        b.join().stream().filter(BarrierSpec::ownershipTransfer).forEach(x -> returned.add(x.resource()));
        assertEquals(Set.of(h.previous().resource(), h.current().resource()), returned);
        assertEquals(ALL, b.finalStates()[h.current().resource()].writeStages(), "later uses order against the join");
    }

    @Test
    void transientMemoryChangingLanesWaitsForThePreviousOccupant() {
        GraphDeclaration g = Planning.graph();
        BufferHandle a = g.addPass("a-async", PassKind.COMPUTE, s -> {
            s.asyncCompute();
            return s.write(s.create("first", BufferDesc.of(4096)), Access.COMPUTE_WRITE);
        }, recordsNothing());
        BufferHandle out = Planning.importBuffer(g, "out", 4096, ResourceState.UNUSED, null);
        g.addPass("b-async", PassKind.COMPUTE, s -> {
            s.asyncCompute();
            s.read(a, Access.COMPUTE_READ);
            return s.write(out, Access.COMPUTE_WRITE);
        }, recordsNothing());
        BufferHandle second = g.addPass("c-main", PassKind.COMPUTE, s -> s.write(s.create("second", BufferDesc.of(4096)), Access.COMPUTE_WRITE),
                recordsNothing());
        BufferHandle out2 = Planning.importBuffer(g, "out2", 4096, ResourceState.UNUSED, null);
        g.addPass("d-main", PassKind.COMPUTE, s -> {
            s.read(second, Access.COMPUTE_READ);
            return s.write(out2, Access.COMPUTE_WRITE);
        }, recordsNothing());
        GraphPlan plan = g.compile();
        assertEquals(plan.slotOf()[a.resource()], plan.slotOf()[second.resource()], "the two transients share memory");
        int[] lanes = LaneAssignment.assign(g, plan, QueueLanes.SAME_FAMILY, n -> true);
        BarrierPlanner.Barriers b = BarrierPlanner.plan(g, plan, s -> ResourceState.UNUSED, lanes, QueueLanes.SAME_FAMILY);
        assertBatchesWellFormed(b.batches(), 4);
        QueueBatch main = b.batches().get(2);
        assertEquals(2, main.firstPos(), b.batches().toString());
        assertEquals(List.of(1), main.waits(), "the new occupant on the main lane waits for the old one on the async lane");
        List<BarrierSpec> beforeC = b.beforePass().get(2);
        assertTrue(beforeC.stream().anyMatch(x -> x.resource() == second.resource() && x.aliasing() && x.srcStages() == ALL), beforeC.toString());
    }

    @Test
    void injectedOrdersAreLegalTopologicalOrdersAndIllegalOnesAreRefused() {
        // Four independent producers and a consumer: many legal orders.
        GraphDeclaration g = Planning.graph();
        List<BufferHandle> made = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int k = i;
            made.add(g.addPass("p" + k, PassKind.COMPUTE, s -> s.write(s.create("t" + k, BufferDesc.of(64)), Access.COMPUTE_WRITE), recordsNothing()));
        }
        BufferHandle shared = Planning.importBuffer(g, "shared", 64, ResourceState.UNUSED, null);
        g.addPass("reader", PassKind.COMPUTE, s -> {
            s.sideEffect();
            made.forEach(h -> s.read(h, Access.COMPUTE_READ));
            return s.read(shared, Access.COMPUTE_READ);
        }, recordsNothing());
        g.addPass("writer", PassKind.COMPUTE, s -> s.write(shared, Access.COMPUTE_WRITE), recordsNothing());
        Set<List<Integer>> seen = new HashSet<>();
        for (long seed = 0; seed < 40; seed++) {
            GraphPlan p = GraphCompiler.compile(g, PassOrder.random(seed));
            List<Integer> order = p.order();
            assertTrue(order.indexOf(4) > order.indexOf(0) && order.indexOf(4) > order.indexOf(3), "reader after the producers: " + order);
            assertTrue(order.indexOf(5) > order.indexOf(4), "the writer after the reader of the old contents: " + order);
            seen.add(order);
        }
        assertTrue(seen.size() > 5, "random orders differ: " + seen);
        PassOrder writerFirst = (needed, preds) -> List.of(5, 0, 1, 2, 3, 4);
        GraphException e = assertThrows(GraphException.class, () -> GraphCompiler.compile(g, writerFirst));
        assertTrue(e.getMessage().contains("'reader'") && e.getMessage().contains("'writer'"), e.getMessage());
        PassOrder dropsOne = (needed, preds) -> List.of(0, 1, 2, 3, 4);
        assertThrows(GraphException.class, () -> GraphCompiler.compile(g, dropsOne));
    }

    @Test
    void randomLanePlacementsOfRandomOrdersAlwaysGiveWellFormedBatches() {
        Chain c = new Chain();
        for (long seed = 0; seed < 30; seed++) {
            GraphPlan p = GraphCompiler.compile(c.g, PassOrder.random(seed));
            java.util.Random r = new java.util.Random(seed);
            int[] lanes = LaneAssignment.assign(c.g, p, QueueLanes.OTHER_FAMILY, n -> r.nextBoolean());
            BarrierPlanner.Barriers b = BarrierPlanner.plan(c.g, p, s -> ResourceState.UNUSED, lanes, QueueLanes.OTHER_FAMILY);
            assertBatchesWellFormed(b.batches(), p.order().size());
            for (QueueBatch batch : b.batches()) {
                for (int pos = batch.firstPos(); pos < batch.endPos(); pos++) {
                    assertEquals(batch.lane(), lanes[pos]);
                }
            }
        }
    }
}

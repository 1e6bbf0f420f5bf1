package dev.tally.internal.graph;
import dev.tally.graph.PassContext;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lwjgl.vulkan.KHRSwapchain.VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Planning without a GPU: culling, ordering, validation messages, barrier lists and transient
 * aliasing of {@link GraphDeclaration}s built with {@code Planning.graph()}. No execute step ever runs.
 */
class GraphPlanningTest {
    private static final float[] CLEAR = {0, 0, 0, 1};
    private static final long COMPUTE = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    private static final long FRAGMENT = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    private static final long COLOR_OUTPUT = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    private static final long TRANSFER = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
    private static final long HOST = VK_PIPELINE_STAGE_2_HOST_BIT;
    private static final long STORAGE_READ = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    private static final long STORAGE_WRITE = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

    // ---------------------------------------------------------------------------------------------
    // helpers

    /** A pass's execute step: the frame is executed on a backend with no GPU, and the pass records nothing. */
    private static <T> BiConsumer<T, PassContext> recordsNothing() {
        return Planning.nothing();
    }

    private static ImageDesc rgba8(int w, int h) {
        return ImageDesc.of(w, h, VK_FORMAT_R8G8B8A8_UNORM);
    }

    /** A compute pass writing a new transient buffer. */
    private static BufferHandle produce(GraphDeclaration g, String pass, String resource, long size) {
        return g.addPass(pass, PassKind.COMPUTE, s -> s.write(s.create(resource, BufferDesc.of(size)), Access.COMPUTE_WRITE), recordsNothing());
    }

    /** A compute pass reading each handle, kept as a side effect. */
    private static void consume(GraphDeclaration g, String pass, Handle... handles) {
        g.addPass(pass, PassKind.COMPUTE, s -> {
            s.sideEffect();
            for (Handle h : handles) {
                s.read(h, Access.COMPUTE_READ);
            }
            return null;
        }, recordsNothing());
    }

    private static List<String> passNames(GraphDeclaration g, List<Integer> indices) {
        List<String> out = new ArrayList<>();
        for (int i : indices) {
            out.add(g.passes.get(i).name);
        }
        return out;
    }

    private static GraphException rejects(Executable e) {
        return assertThrows(GraphException.class, e);
    }

    private static void assertNames(GraphException e, String pass, String resource) {
        String m = e.getMessage();
        assertTrue(m.contains("'" + pass + "'"), () -> "message names the pass '" + pass + "': " + m);
        assertTrue(m.contains("'" + resource + "'"), () -> "message names the resource '" + resource + "': " + m);
    }

    /** What an executed frame recorded: its plan, the passes in recorded order, the barriers at each point. */
    private record Planned(GraphDeclaration g, GraphPlan plan, BarrierPlanner.Barriers barriers, List<String> recorded) {
        List<BarrierSpec> before(String pass) {
            for (int pos = 0; pos < plan.order().size(); pos++) {
                if (g.passes.get(plan.order().get(pos)).name.equals(pass)) {
                    return barriers.beforePass().get(pos);
                }
            }
            throw new AssertionError("pass '" + pass + "' is not in the plan (culled: " + passNames(g, plan.culled()) + ")");
        }
    }

    /** Executes {@code g} on the recording backend: the barriers are those that reached it, the passes those it labelled. */
    private static Planned plan(GraphDeclaration g) {
        Planning.Executed e = Planning.executed(g);
        assertEquals(passNames(g, e.plan().order()), e.passes(), "the passes recorded are the plan's, in its order; culled ones are not");
        return new Planned(g, e.plan(), e.barriers(), e.passes());
    }

    /** The barrier planner alone, with each memory slot starting in {@code slots} (an earlier frame's leftovers). */
    private static Planned plan(GraphDeclaration g, IntFunction<ResourceState> slots) {
        GraphPlan p = g.compile();
        return new Planned(g, p, BarrierPlanner.plan(g, p, slots), passNames(g, p.order()));
    }

    private static BarrierSpec barrierFor(List<BarrierSpec> list, Handle h) {
        BarrierSpec found = null;
        for (BarrierSpec b : list) {
            if (b.resource() == h.resource()) {
                assertNull(found, () -> "one barrier per resource in a merged list: " + list);
                found = b;
            }
        }
        assertNotNull(found, () -> "a barrier for resource #" + h.resource() + " in " + list);
        return found;
    }

    /**
     * Checks one barrier. Layouts are checked for image barriers only: a buffer barrier's layout fields carry
     * whatever layout its accesses name (UNDEFINED or GENERAL) and are never recorded; for buffers the expected
     * layouts must be given as UNDEFINED and the barrier must not claim a layout change.
     */
    private static void assertBarrier(BarrierSpec b, long srcStages, long srcAccess, long dstStages, long dstAccess, int oldLayout,
                                      int newLayout) {
        assertAll(b.toString(),
                () -> assertEquals(srcStages, b.srcStages(), "srcStages"),
                () -> assertEquals(srcAccess, b.srcAccess(), "srcAccess"),
                () -> assertEquals(dstStages, b.dstStages(), "dstStages"),
                () -> assertEquals(dstAccess, b.dstAccess(), "dstAccess"),
                () -> {
                    if (b.image()) {
                        assertEquals(oldLayout, b.oldLayout(), "oldLayout");
                        assertEquals(newLayout, b.newLayout(), "newLayout");
                    } else {
                        assertEquals(VK_IMAGE_LAYOUT_UNDEFINED, oldLayout, "test expects a buffer barrier with image layouts");
                        assertEquals(VK_IMAGE_LAYOUT_UNDEFINED, newLayout, "test expects a buffer barrier with image layouts");
                        assertFalse(b.layoutChange(), "a buffer barrier has no layout change");
                    }
                });
    }

    // ---------------------------------------------------------------------------------------------

    @Nested
    class Culling {
        @Test
        void passWhoseOutputNobodyReadsIsCulled() {
            GraphDeclaration g = Planning.graph();
            BufferHandle used = produce(g, "produce", "used", 64);
            BufferHandle ignored = produce(g, "unused", "ignored", 64);
            consume(g, "consume", used);
            GraphPlan plan = g.compile();
            assertEquals(List.of("unused"), passNames(g, plan.culled()));
            assertEquals(List.of("produce", "consume"), passNames(g, plan.order()));
            assertEquals(-1, plan.firstUse()[ignored.resource()], "a culled pass's transient is never used");
            assertEquals(-1, plan.slotOf()[ignored.resource()], "a transient only a culled pass touches gets no memory");
            assertEquals(64, plan.requestedBytes(g), "only 'used' is requested");
        }

        @Test
        void sideEffectPassesAreKept() {
            GraphDeclaration g = Planning.graph();
            BufferHandle in = Planning.importBuffer(g, "in", 64, ResourceState.UNUSED, null);
            // Reads only (a debug print, say) but declares a side effect.
            g.addPass("observe", PassKind.COMPUTE, s -> {
                s.sideEffect();
                return s.read(in, Access.COMPUTE_READ);
            }, recordsNothing());
            // Writes a transient nobody reads, but declares a side effect.
            g.addPass("writesOnly", PassKind.COMPUTE, s -> {
                s.sideEffect();
                return s.write(s.create("t", BufferDesc.of(64)), Access.COMPUTE_WRITE);
            }, recordsNothing());
            GraphPlan plan = g.compile();
            assertEquals(List.of("observe", "writesOnly"), passNames(g, plan.order()));
            assertTrue(plan.culled().isEmpty());
        }

        @Test
        void passesWritingImportedResourcesAreKept() {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            ImageHandle target = Planning.importImage(g, "target", rgba8(16, 16), ResourceState.UNUSED, null);
            BufferHandle feed = produce(g, "feed", "feed", 64);
            g.addPass("toBuffer", PassKind.TRANSFER, s -> {
                s.read(feed, Access.TRANSFER_SRC);
                return s.write(out, Access.TRANSFER_DST);
            }, recordsNothing());
            g.addPass("toImage", PassKind.GRAPHICS, s -> s.colorAttachment(target, CLEAR), recordsNothing());
            GraphPlan plan = g.compile();
            assertEquals(List.of("feed", "toBuffer", "toImage"), passNames(g, plan.order()), "nobody reads the imports in this frame");
            assertTrue(plan.culled().isEmpty());
        }

        @Test
        void passesWritingHistoryAreKept() {
            GraphDeclaration g = Planning.graph();
            GraphDeclaration.History h = Planning.history(g, "running", 16, ResourceState.UNUSED, ResourceState.UNUSED);
            BufferHandle partial = produce(g, "partial", "partial", 16);
            g.addPass("accumulate", PassKind.COMPUTE, s -> {
                s.read(h.previous(), Access.COMPUTE_READ);
                s.read(partial, Access.COMPUTE_READ);
                return s.write(h.current(), Access.COMPUTE_WRITE);
            }, recordsNothing());
            GraphPlan plan = g.compile();
            assertEquals(List.of("partial", "accumulate"), passNames(g, plan.order()));
            assertEquals(-1, plan.slotOf()[h.current().resource()], "history is not transient memory");
            assertEquals(-1, plan.slotOf()[h.previous().resource()]);
        }

        @Test
        void chainFeedingOnlyACulledPassIsCulledTransitively() {
            GraphDeclaration g = Planning.graph();
            BufferHandle a = produce(g, "a", "ta", 64);
            BufferHandle shared = produce(g, "shared", "tshared", 64);
            BufferHandle b = g.addPass("b", PassKind.COMPUTE, s -> {
                s.read(a, Access.COMPUTE_READ);
                s.read(shared, Access.COMPUTE_READ);
                return s.write(s.create("tb", BufferDesc.of(64)), Access.COMPUTE_WRITE);
            }, recordsNothing());
            g.addPass("c", PassKind.TRANSFER, s -> {
                s.read(b, Access.TRANSFER_SRC);
                return s.write(s.create("tc", BufferDesc.of(64)), Access.TRANSFER_DST);
            }, recordsNothing());
            consume(g, "keep", shared);
            GraphPlan plan = g.compile();
            assertEquals(List.of("a", "b", "c"), passNames(g, plan.culled()));
            assertEquals(List.of("shared", "keep"), passNames(g, plan.order()), "a writer also feeding a kept pass stays");
        }

        @Test
        void overwrittenBufferCullsItsEarlierWriterButALoadedImageKeepsIt() {
            GraphDeclaration g = Planning.graph();
            BufferHandle v1 = produce(g, "first", "buf", 64);
            BufferHandle v2 = g.addPass("overwrite", PassKind.COMPUTE, s -> s.write(v1, Access.COMPUTE_WRITE), recordsNothing());
            consume(g, "readBuf", v2);
            ImageHandle target = Planning.importImage(g, "target", rgba8(8, 8), ResourceState.UNUSED, null);
            ImageHandle i1 = g.addPass("base", PassKind.GRAPHICS, s -> s.colorAttachment(s.create("img", rgba8(8, 8)), CLEAR), recordsNothing());
            record Over(ImageHandle img, ImageHandle out) {
            }
            Over over = g.addPass("overlay", PassKind.GRAPHICS, s -> new Over(s.colorAttachment(i1, null), s.colorAttachment(target, CLEAR)),
                    recordsNothing());
            assertNotNull(over.img());
            GraphPlan plan = g.compile();
            assertEquals(List.of("first"), passNames(g, plan.culled()), "a full overwrite of a buffer does not need its old contents");
            assertEquals(List.of("overwrite", "readBuf", "base", "overlay"), passNames(g, plan.order()),
                    "'base' is kept: 'overlay' loads its attachment");
        }

        @Test
        void scratchWritesDoNotKeepAPassAlive() {
            GraphDeclaration g = Planning.graph();
            BufferHandle scratch = Planning.importScratch(g, "partials", 256L, ResourceState.UNUSED);
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            // Writes only the scratch buffer, and nobody reads it: nothing escapes the frame.
            g.addPass("scratchOnly", PassKind.COMPUTE, s -> s.write(scratch, Access.COMPUTE_WRITE), recordsNothing());
            // The same shape writing an import instead is kept.
            g.addPass("importWriter", PassKind.COMPUTE, s -> s.write(out, Access.COMPUTE_WRITE), recordsNothing());
            GraphPlan plan = g.compile();
            assertEquals(List.of("scratchOnly"), passNames(g, plan.culled()));
            assertEquals(List.of("importWriter"), passNames(g, plan.order()));
            assertEquals(-1, plan.slotOf()[scratch.resource()], "scratch is caller memory, not a transient slot");
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    void orderIsDeclarationOrderWithinDependencies() {
        GraphDeclaration g = Planning.graph();
        BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
        ImageHandle target = Planning.importImage(g, "target", rgba8(32, 32), ResourceState.UNUSED, null);
        BufferHandle upload = g.addPass("upload", PassKind.TRANSFER, s -> s.write(s.create("staged", BufferDesc.of(64)), Access.TRANSFER_DST),
                recordsNothing());
        g.addPass("independent", PassKind.GRAPHICS, s -> s.colorAttachment(target, CLEAR), recordsNothing());
        produce(g, "dead", "dead", 64);
        BufferHandle blurred = g.addPass("blur", PassKind.COMPUTE, s -> {
            s.read(upload, Access.COMPUTE_READ);
            return s.write(s.create("blurred", BufferDesc.of(64)), Access.COMPUTE_WRITE);
        }, recordsNothing());
        BufferHandle other = produce(g, "other", "other", 64);
        g.addPass("readback", PassKind.TRANSFER, s -> {
            s.read(blurred, Access.TRANSFER_SRC);
            s.read(other, Access.TRANSFER_SRC);
            return s.write(out, Access.TRANSFER_DST);
        }, recordsNothing());
        GraphPlan plan = g.compile();
        assertEquals(List.of("upload", "independent", "blur", "other", "readback"), passNames(g, plan.order()));
        assertEquals(List.of(0, 1, 3, 4, 5), plan.order());
        assertEquals(List.of("dead"), passNames(g, plan.culled()));
        // Every writer runs before its readers.
        int[] position = new int[g.passCount()];
        Arrays.fill(position, -1);
        for (int i = 0; i < plan.order().size(); i++) {
            position[plan.order().get(i)] = i;
        }
        for (int i : plan.order()) {
            for (Pass.Use u : g.passes.get(i).uses) {
                int writer = u.version() > 0 ? g.resources.get(u.resource()).writer(u.version()) : -1;
                if (writer >= 0 && position[writer] >= 0) {
                    assertTrue(position[writer] < position[i], "writer before reader");
                }
            }
        }
        assertEquals(plan.order().indexOf(3), plan.firstUse()[blurred.resource()], "'blurred' is first used at blur's position");
        assertEquals(plan.order().indexOf(5), plan.lastUse()[blurred.resource()]);
    }

    // ---------------------------------------------------------------------------------------------

    @Nested
    class Validation {
        @Test
        void readOfATransientNobodyWrote() {
            GraphDeclaration g = Planning.graph();
            GraphException e = rejects(() -> g.addPass("blur", PassKind.COMPUTE,
                    s -> s.read(s.create("input", BufferDesc.of(64)), Access.COMPUTE_READ), recordsNothing()));
            assertNames(e, "blur", "input");
            assertTrue(e.getMessage().contains("no pass wrote"), e.getMessage());
        }

        @Test
        void loadingAnUnwrittenTransientAttachmentIsARead() {
            GraphDeclaration g = Planning.graph();
            ImageHandle img = g.createImage("canvas", rgba8(8, 8));
            GraphException e = rejects(() -> g.addPass("blend", PassKind.GRAPHICS, s -> s.colorAttachment(img, null), recordsNothing()));
            assertNames(e, "blend", "canvas");
        }

        @Test
        void twoUnorderedWriters() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t0 = g.createBuffer("t", BufferDesc.of(64));
            g.addPass("w1", PassKind.COMPUTE, s -> s.write(t0, Access.COMPUTE_WRITE), recordsNothing());
            GraphException e = rejects(() -> g.addPass("w2", PassKind.COMPUTE, s -> s.write(t0, Access.COMPUTE_WRITE), recordsNothing()));
            assertNames(e, "w2", "t");
            assertTrue(e.getMessage().contains("'w1'") && e.getMessage().contains("two unordered writers"), e.getMessage());
        }

        @Test
        void staleHandle() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t1 = produce(g, "w1", "t", 64);
            BufferHandle t2 = g.addPass("w2", PassKind.COMPUTE, s -> s.write(t1, Access.COMPUTE_READ_WRITE), recordsNothing());
            assertEquals(t1.resource(), t2.resource());
            assertEquals(2, t2.version());
            GraphException e = rejects(() -> g.addPass("late", PassKind.COMPUTE, s -> s.read(t1, Access.COMPUTE_READ), recordsNothing()));
            assertNames(e, "late", "t");
            assertTrue(e.getMessage().contains("stale") && e.getMessage().contains("'w2'"), e.getMessage());
        }

        @Test
        void passReadingItsOwnOutputIsACycle() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "state", 64);
            GraphException e = rejects(() -> g.addPass("loop", PassKind.COMPUTE, s -> {
                BufferHandle out = s.write(t, Access.COMPUTE_WRITE);
                return s.read(out, Access.COMPUTE_READ);
            }, recordsNothing()));
            assertNames(e, "loop", "state");
            assertTrue(e.getMessage().contains("cycle"), e.getMessage());
        }

        @Test
        void attachmentsOfDifferentSizes() {
            GraphDeclaration g = Planning.graph();
            GraphException e = rejects(() -> g.addPass("gbuffer", PassKind.GRAPHICS, s -> {
                s.colorAttachment(s.create("albedo", rgba8(64, 64)), CLEAR);
                return s.colorAttachment(s.create("normals", rgba8(32, 64)), CLEAR);
            }, recordsNothing()));
            assertNames(e, "gbuffer", "normals");
            assertTrue(e.getMessage().contains("size mismatch") && e.getMessage().contains("32x64") && e.getMessage().contains("64x64"),
                    e.getMessage());
        }

        @Test
        void depthOrUndefinedFormatImagesAreRejected() {
            GraphDeclaration g = Planning.graph();
            GraphException depth = rejects(() -> g.createImage("depth", ImageDesc.of(64, 64, VK_FORMAT_D32_SFLOAT)));
            assertTrue(depth.getMessage().contains("'depth'") && depth.getMessage().contains("not a color format"), depth.getMessage());
            GraphException undefined = rejects(() -> g.createImage("blank", ImageDesc.of(64, 64, VK_FORMAT_UNDEFINED)));
            assertTrue(undefined.getMessage().contains("'blank'"), undefined.getMessage());
        }

        @Test
        void formatErrorRaisedInAPassSetupNamesThePass() {
            GraphDeclaration g = Planning.graph();
            GraphException e = rejects(() -> g.addPass("shadows", PassKind.GRAPHICS,
                    s -> s.colorAttachment(s.create("shadowDepth", ImageDesc.of(64, 64, VK_FORMAT_D16_UNORM)), CLEAR), recordsNothing()));
            assertNames(e, "shadows", "shadowDepth");
        }

        @Test
        void importedDepthImagesAreRejected() {
            // The graph only records color-aspect barriers; an imported depth image would get wrong ones.
            GraphDeclaration g = Planning.graph();
            GraphException e = rejects(() -> Planning.importImage(g, "sceneDepth", ImageDesc.of(64, 64, VK_FORMAT_D24_UNORM_S8_UINT),
                    ResourceState.UNUSED, null));
            assertTrue(e.getMessage().contains("'sceneDepth'"), e.getMessage());
        }

        @Test
        void computePassUsingATransferAccess() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            GraphException e = rejects(() -> g.addPass("copyInCompute", PassKind.COMPUTE, s -> s.read(t, Access.TRANSFER_SRC), recordsNothing()));
            assertNames(e, "copyInCompute", "data");
            assertTrue(e.getMessage().contains("compute pass") && e.getMessage().contains(Access.TRANSFER_SRC.name()), e.getMessage());
            GraphException w = rejects(() -> g.addPass("fillInCompute", PassKind.COMPUTE, s -> s.write(t, Access.TRANSFER_DST), recordsNothing()));
            assertNames(w, "fillInCompute", "data");
        }

        @Test
        void transferAndGraphicsPassesRejectComputeAccesses() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            assertNames(rejects(() -> g.addPass("copy", PassKind.TRANSFER, s -> s.read(t, Access.COMPUTE_READ), recordsNothing())), "copy", "data");
            ImageHandle target = Planning.importImage(g, "target", rgba8(8, 8), ResourceState.UNUSED, null);
            assertNames(rejects(() -> g.addPass("draw", PassKind.GRAPHICS, s -> {
                s.colorAttachment(target, CLEAR);
                return s.read(t, Access.COMPUTE_READ);
            }, recordsNothing())), "draw", "data");
        }

        @Test
        void hostReadAndPresentAreNotPassAccesses() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            GraphException e = rejects(() -> g.addPass("peek", PassKind.TRANSFER, s -> s.read(t, Access.HOST_READ), recordsNothing()));
            assertNames(e, "peek", "data");
            assertTrue(e.getMessage().contains("final access"), e.getMessage());
        }

        @Test
        void imageAccessOnABuffer() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            assertNames(rejects(() -> g.addPass("sample", PassKind.COMPUTE, s -> s.read(t, Access.COMPUTE_SAMPLED), recordsNothing())), "sample", "data");
        }

        @Test
        void readWithAWritingAccessAndWriteWithAReadingOne() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            assertNames(rejects(() -> g.addPass("r", PassKind.COMPUTE, s -> s.read(t, Access.COMPUTE_WRITE), recordsNothing())), "r", "data");
            assertNames(rejects(() -> g.addPass("w", PassKind.COMPUTE, s -> s.write(t, Access.COMPUTE_READ), recordsNothing())), "w", "data");
        }

        @Test
        void graphicsPassWithoutAttachment() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "data", 64);
            GraphException e = rejects(() -> g.addPass("hud", PassKind.GRAPHICS, s -> s.read(t, Access.GRAPHICS_READ), recordsNothing()));
            assertTrue(e.getMessage().contains("'hud'") && e.getMessage().contains("no color attachment"), e.getMessage());
        }

        @Test
        void duplicatePassName() {
            GraphDeclaration g = Planning.graph();
            produce(g, "blur", "a", 64);
            GraphException e = rejects(() -> produce(g, "blur", "b", 64));
            assertTrue(e.getMessage().contains("'blur'") && e.getMessage().contains("twice"), e.getMessage());
            assertEquals(1, g.passCount(), "the duplicate is not added");
        }

        @Test
        void duplicateResourceName() {
            GraphDeclaration g = Planning.graph();
            g.createBuffer("lights", BufferDesc.of(64));
            GraphException e = rejects(() -> Planning.importBuffer(g, "lights", 64, ResourceState.UNUSED, null));
            assertTrue(e.getMessage().contains("'lights'") && e.getMessage().contains("twice"), e.getMessage());
            GraphException img = rejects(() -> g.createImage("lights", rgba8(4, 4)));
            assertTrue(img.getMessage().contains("'lights'"), img.getMessage());
        }

        @Test
        void duplicateResourceNameDeclaredInAPassSetupNamesThePass() {
            GraphDeclaration g = Planning.graph();
            g.createBuffer("tiles", BufferDesc.of(64));
            GraphException e = rejects(() -> produce(g, "binning", "tiles", 64));
            assertNames(e, "binning", "tiles");
        }

        @Test
        void historyPreviousIsReadOnly() {
            GraphDeclaration g = Planning.graph();
            GraphDeclaration.History h = Planning.history(g, "taa", 64, ResourceState.UNUSED, ResourceState.UNUSED);
            GraphException e = rejects(() -> g.addPass("resolve", PassKind.COMPUTE, s -> s.write(h.previous(), Access.COMPUTE_WRITE), recordsNothing()));
            assertNames(e, "resolve", "taa@prev");
        }

        @Test
        void nullHandle() {
            GraphDeclaration g = Planning.graph();
            GraphException e = rejects(() -> g.addPass("temporal", PassKind.COMPUTE, s -> s.read((BufferHandle) null, Access.COMPUTE_READ),
                    recordsNothing()));
            assertTrue(e.getMessage().contains("'temporal'") && e.getMessage().contains("null handle"), e.getMessage());
            GraphException w = rejects(() -> g.addPass("temporal2", PassKind.GRAPHICS, s -> s.colorAttachment(null, CLEAR), recordsNothing()));
            assertTrue(w.getMessage().contains("'temporal2'") && w.getMessage().contains("null handle"), w.getMessage());
        }

        @Test
        void handleFromAnotherGraph() {
            GraphDeclaration other = Planning.graph();
            other.createBuffer("a", BufferDesc.of(4));
            other.createBuffer("b", BufferDesc.of(4));
            BufferHandle foreign = produce(other, "w", "c", 4);
            // This graph has a resource at the same index, of the same type and version: only identity tells them apart.
            GraphDeclaration g = Planning.graph();
            g.createBuffer("a", BufferDesc.of(4));
            g.createBuffer("b", BufferDesc.of(4));
            BufferHandle own = produce(g, "w", "c", 4);
            assertEquals(own.resource(), foreign.resource());
            assertEquals(own.version(), foreign.version());
            assertNotEquals(own, foreign);
            GraphException e = rejects(() -> g.addPass("p", PassKind.COMPUTE, s -> s.read(foreign, Access.COMPUTE_READ), recordsNothing()));
            assertTrue(e.getMessage().contains("'p'") && e.getMessage().contains("is not one of frame "), e.getMessage());
        }

        @Test
        void blankNames() {
            GraphDeclaration g = Planning.graph();
            rejects(() -> g.createBuffer(" ", BufferDesc.of(4)));
            rejects(() -> produce(g, "", "x", 4));
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Nested
    class Barriers {
        @Test
        void computeToComputeReadAfterWrite() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "write", "t", 256);
            consume(g, "read", t);
            Planned p = plan(g);
            assertEquals(List.of(), p.before("write"), "a transient buffer's first use in an untouched slot needs nothing");
            assertEquals(1, p.before("read").size());
            BarrierSpec b = barrierFor(p.before("read"), t);
            assertFalse(b.image());
            assertFalse(b.aliasing());
            assertBarrier(b, COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertTrue(p.barriers().epilogue().isEmpty());
        }

        /**
         * "exposure" writes a history; "tonemap" reads it and writes an output; "plot" reads it and writes the ring, an
         * import last used by the previous frame in {@code ringEntry}: plot does not depend on tonemap.
         */
        private record TonemapThenPlot(Planned planned, BufferHandle ring, BufferHandle history) {
        }

        private TonemapThenPlot tonemapThenPlot(ResourceState ringEntry) {
            GraphDeclaration g = Planning.graph();
            BufferHandle ring = Planning.importBuffer(g, "plot.ring", 256, ringEntry, null);
            BufferHandle output = Planning.importBuffer(g, "output", 256, ResourceState.UNUSED, null);
            BufferHandle history = produce(g, "exposure", "history", 64);
            g.addPass("tonemap", PassKind.COMPUTE, s -> {
                s.read(history, Access.COMPUTE_READ);
                return s.write(output, Access.COMPUTE_WRITE);
            }, recordsNothing());
            g.addPass("plot", PassKind.COMPUTE, s -> {
                s.read(history, Access.COMPUTE_READ);
                return s.write(ring, Access.COMPUTE_WRITE);
            }, recordsNothing());
            return new TonemapThenPlot(plan(g), ring, history);
        }

        @Test
        void aBuffersFirstBarrierJoinsTheLatestEarlierOneSoIndependentPassesStayUnsplit() {
            // The ring, last read by the previous frame's compute pass: writing it needs an execution dependency on that
            // read. Placed before "plot" it would also wait for "tonemap", which plot does not depend on.
            TonemapThenPlot t = tonemapThenPlot(ResourceState.after(Access.COMPUTE_READ));
            Planned p = t.planned();
            assertEquals(List.of("exposure", "tonemap", "plot"), p.recorded());
            assertEquals(List.of(), p.before("plot"), "nothing between two passes that do not depend on each other");
            assertBarrier(barrierFor(p.before("tonemap"), t.history()), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertBarrier(barrierFor(p.before("tonemap"), t.ring()), COMPUTE, 0, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void aBuffersFirstBarrierStaysWithItsPassWhereTheEarlierBarriersWaitForOtherStages() {
            // The ring was last read by a graphics pass: the barriers before "tonemap" order compute after compute, so moving
            // the ring's barrier there would make the tonemap wait for the previous frame's graphics work.
            TonemapThenPlot t = tonemapThenPlot(ResourceState.after(Access.GRAPHICS_READ));
            Planned p = t.planned();
            assertEquals(1, p.before("tonemap").size(), "only the history's barrier before the tonemap: " + p.before("tonemap"));
            assertBarrier(barrierFor(p.before("plot"), t.ring()), Access.GRAPHICS_READ.stages(), 0, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void aBufferUsedWithoutTheUsageItsAccessNeedsIsRefusedWhereTheUseIsDeclared() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = g.addPass("make", PassKind.COMPUTE, s -> s.write(s.create("t", BufferDesc.of(64)), Access.COMPUTE_WRITE), recordsNothing());
            GraphException e = rejects(() -> g.addPass("use", PassKind.COMPUTE, s -> {
                s.sideEffect();
                return s.read(t, Access.COMPUTE_UNIFORM);
            }, recordsNothing()));
            assertEquals("pass 'use': compute-uniform of buffer 't' needs VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, which it was created without;"
                    + " add it to the buffer's usage", e.getMessage());
            GraphDeclaration h = Planning.graph();
            BufferHandle u = h.addPass("make", PassKind.COMPUTE, s -> s.write(s.create("u", new BufferDesc(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)),
                    Access.COMPUTE_WRITE), recordsNothing());
            GraphException copy = rejects(() -> h.addPass("copy", PassKind.TRANSFER, s -> {
                s.sideEffect();
                return s.read(u, Access.TRANSFER_SRC);
            }, recordsNothing()));
            assertTrue(copy.getMessage().contains("needs VK_BUFFER_USAGE_TRANSFER_SRC_BIT"), copy::getMessage);
        }

        @Test
        void readModifyWriteThenReadGetsABarrier() {
            // The read-modify-write makes its own read visible to itself, not its write to the next pass.
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "t", 256);
            BufferHandle scanned = g.addPass("scan", PassKind.COMPUTE, s -> s.write(t, Access.COMPUTE_READ_WRITE), recordsNothing());
            consume(g, "read", scanned);
            Planned p = plan(g);
            assertBarrier(barrierFor(p.before("scan"), t), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ | STORAGE_WRITE,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertEquals(1, p.before("read").size(), "the scan's write must be made visible to the next reader");
            assertBarrier(barrierFor(p.before("read"), t), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void readAndWriteInOnePassThenReadGetsABarrier() {
            GraphDeclaration g = Planning.graph();
            BufferHandle t = produce(g, "init", "t", 256);
            BufferHandle updated = g.addPass("update", PassKind.COMPUTE, s -> {
                s.read(t, Access.COMPUTE_READ);
                return s.write(t, Access.COMPUTE_WRITE);
            }, recordsNothing());
            consume(g, "read", updated);
            Planned p = plan(g);
            assertEquals(1, p.before("update").size(), "the two uses of 't' merge into one barrier");
            assertEquals(1, p.before("read").size(), "the update's write must be made visible to the next reader");
        }

        @Test
        void computeWriteToFragmentSampledImage() {
            GraphDeclaration g = Planning.graph();
            ImageHandle target = Planning.importImage(g, "target", rgba8(64, 64), ResourceState.UNUSED, null);
            ImageHandle lit = g.addPass("light", PassKind.COMPUTE, s -> s.write(s.create("lit", rgba8(64, 64)), Access.COMPUTE_WRITE), recordsNothing());
            g.addPass("tonemap", PassKind.GRAPHICS, s -> {
                s.read(lit, Access.FRAGMENT_SAMPLED);
                return s.colorAttachment(target, CLEAR);
            }, recordsNothing());
            Planned p = plan(g);
            BarrierSpec first = barrierFor(p.before("light"), lit);
            assertTrue(first.image() && !first.aliasing());
            assertBarrier(first, 0, 0, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);

            assertEquals(2, p.before("tonemap").size(), "one merged list: the sampled image and the attachment");
            BarrierSpec sampled = barrierFor(p.before("tonemap"), lit);
            assertTrue(sampled.layoutChange());
            assertBarrier(sampled, COMPUTE, STORAGE_WRITE, FRAGMENT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            assertBarrier(barrierFor(p.before("tonemap"), target), 0, 0, COLOR_OUTPUT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        }

        @Test
        void transferWriteToHostReadOfAnImport() {
            GraphDeclaration g = Planning.graph();
            BufferHandle readback = Planning.importBuffer(g, "readback", 64, ResourceState.UNUSED, Access.HOST_READ);
            BufferHandle sum = produce(g, "sum", "sum", 64);
            g.addPass("copy", PassKind.TRANSFER, s -> {
                s.read(sum, Access.TRANSFER_SRC);
                return s.write(readback, Access.TRANSFER_DST);
            }, recordsNothing());
            Planned p = plan(g);
            assertEquals(1, p.before("copy").size(), "the import was untouched: only 'sum' needs a barrier");
            assertBarrier(barrierFor(p.before("copy"), sum), COMPUTE, STORAGE_WRITE, TRANSFER, VK_ACCESS_2_TRANSFER_READ_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertEquals(1, p.barriers().epilogue().size());
            BarrierSpec host = barrierFor(p.barriers().epilogue(), readback);
            assertBarrier(host, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, HOST, VK_ACCESS_2_HOST_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
            ResourceState fin = p.barriers().finalStates()[readback.resource()];
            assertEquals(VK_ACCESS_2_HOST_READ_BIT, fin.visibleAccess() & VK_ACCESS_2_HOST_READ_BIT, "the host read is visible: " + fin);
        }

        @Test
        void writeAfterReadIsAnExecutionDependency() {
            GraphDeclaration g = Planning.graph();
            BufferHandle lut = Planning.importBuffer(g, "lut", 64, ResourceState.UNUSED, null);
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            g.addPass("sample", PassKind.COMPUTE, s -> {
                s.read(lut, Access.COMPUTE_READ);
                return s.write(out, Access.COMPUTE_WRITE);
            }, recordsNothing());
            g.addPass("update", PassKind.TRANSFER, s -> s.write(lut, Access.TRANSFER_DST), recordsNothing());
            Planned p = plan(g);
            assertEquals(List.of(), p.before("sample"), "nothing wrote the imports");
            assertBarrier(barrierFor(p.before("update"), lut), COMPUTE, 0, TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void writeAfterReadAfterWriteWaitsForReadersAndTheWriter() {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            BufferHandle t1 = g.addPass("fill", PassKind.TRANSFER, s -> s.write(s.create("t", BufferDesc.of(64)), Access.TRANSFER_DST), recordsNothing());
            BufferHandle o1 = g.addPass("use", PassKind.COMPUTE, s -> {
                s.read(t1, Access.COMPUTE_READ);
                return s.write(out, Access.COMPUTE_WRITE);
            }, recordsNothing());
            BufferHandle t2 = g.addPass("refill", PassKind.TRANSFER, s -> s.write(t1, Access.TRANSFER_DST), recordsNothing());
            g.addPass("use2", PassKind.COMPUTE, s -> {
                s.read(t2, Access.COMPUTE_READ);
                return s.write(o1, Access.COMPUTE_WRITE);
            }, recordsNothing());
            Planned p = plan(g);
            BarrierSpec war = barrierFor(p.before("refill"), t1);
            assertEquals(COMPUTE, war.srcStages() & COMPUTE, "waits for the reader");
            assertEquals(0, war.srcAccess() & ~VK_ACCESS_2_TRANSFER_WRITE_BIT, "reads need no availability: " + war);
            assertEquals(TRANSFER, war.dstStages());
            assertEquals(VK_ACCESS_2_TRANSFER_WRITE_BIT, war.dstAccess());
            // 'out' is written twice by compute: write after write.
            assertBarrier(barrierFor(p.before("use2"), out), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void writeAfterWrite() {
            GraphDeclaration g = Planning.graph();
            BufferHandle acc = Planning.importBuffer(g, "acc", 64, ResourceState.UNUSED, null);
            BufferHandle cleared = g.addPass("clear", PassKind.TRANSFER, s -> s.write(acc, Access.TRANSFER_DST), recordsNothing());
            g.addPass("accumulate", PassKind.COMPUTE, s -> s.write(cleared, Access.COMPUTE_WRITE), recordsNothing());
            Planned p = plan(g);
            assertEquals(List.of(), p.before("clear"));
            assertBarrier(barrierFor(p.before("accumulate"), acc), TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, STORAGE_WRITE,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void noBarrierBetweenTwoReads() {
            GraphDeclaration g = Planning.graph();
            ImageHandle target = Planning.importImage(g, "target", rgba8(8, 8), ResourceState.UNUSED, null);
            BufferHandle t = produce(g, "write", "t", 64);
            consume(g, "read1", t);
            consume(g, "read2", t);
            g.addPass("draw", PassKind.GRAPHICS, s -> {
                s.read(t, Access.GRAPHICS_READ);
                return s.colorAttachment(target, CLEAR);
            }, recordsNothing());
            Planned p = plan(g);
            assertEquals(1, p.before("read1").size());
            assertEquals(List.of(), p.before("read2"), "the write is already visible to compute storage reads");
            // A read in new stages still needs the write made visible there.
            BarrierSpec toGraphics = barrierFor(p.before("draw"), t);
            assertBarrier(toGraphics, COMPUTE, STORAGE_WRITE, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | FRAGMENT, STORAGE_READ,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void noBarrierBetweenTwoSampledReadsOfAnImage() {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            ImageHandle img = g.addPass("make", PassKind.COMPUTE, s -> s.write(s.create("img", rgba8(8, 8)), Access.COMPUTE_WRITE), recordsNothing());
            BufferHandle o1 = g.addPass("s1", PassKind.COMPUTE, s -> {
                s.read(img, Access.COMPUTE_SAMPLED);
                return s.write(out, Access.COMPUTE_WRITE);
            }, recordsNothing());
            g.addPass("s2", PassKind.COMPUTE, s -> {
                s.read(img, Access.COMPUTE_SAMPLED);
                return s.write(o1, Access.COMPUTE_WRITE);
            }, recordsNothing());
            Planned p = plan(g);
            assertBarrier(barrierFor(p.before("s1"), img), COMPUTE, STORAGE_WRITE, COMPUTE, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                    VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            assertTrue(p.before("s2").stream().noneMatch(b -> b.resource() == img.resource()), "same layout, already visible: " + p.before("s2"));
        }

        @Test
        void imageLayoutsFromAttachmentToTransferToPresent() {
            GraphDeclaration g = Planning.graph();
            ResourceState acquired = new ResourceState(COLOR_OUTPUT, 0, 0, 0, 0, VK_IMAGE_LAYOUT_UNDEFINED);
            ImageHandle swap = Planning.importImage(g, "swapchain", ImageDesc.of(64, 64, VK_FORMAT_B8G8R8A8_SRGB), acquired, Access.PRESENT);
            BufferHandle readback = Planning.importBuffer(g, "readback", 64 * 64 * 4, ResourceState.UNUSED, Access.HOST_READ);
            ImageHandle drawn = g.addPass("draw", PassKind.GRAPHICS, s -> s.colorAttachment(swap, CLEAR), recordsNothing());
            g.addPass("capture", PassKind.TRANSFER, s -> {
                s.read(drawn, Access.TRANSFER_SRC);
                return s.write(readback, Access.TRANSFER_DST);
            }, recordsNothing());
            Planned p = plan(g);
            assertBarrier(barrierFor(p.before("draw"), swap), COLOR_OUTPUT, 0, COLOR_OUTPUT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            assertEquals(1, p.before("capture").size(), "the untouched readback needs no barrier");
            assertBarrier(barrierFor(p.before("capture"), swap), COLOR_OUTPUT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, TRANSFER,
                    VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
            List<BarrierSpec> epilogue = p.barriers().epilogue();
            assertEquals(2, epilogue.size(), epilogue.toString());
            BarrierSpec present = barrierFor(epilogue, swap);
            assertEquals(VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, present.oldLayout());
            assertEquals(VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, present.newLayout());
            assertEquals(TRANSFER, present.srcStages(), "after the copy");
            assertEquals(0, present.srcAccess(), "a read needs no availability");
            assertEquals(0, present.dstAccess());
            assertBarrier(barrierFor(epilogue, readback), TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, HOST, VK_ACCESS_2_HOST_READ_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertEquals(VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, p.barriers().finalStates()[swap.resource()].layout());
        }

        @Test
        void importedImageAlreadyInTheRightLayoutNeedsNoTransition() {
            GraphDeclaration g = Planning.graph();
            ImageHandle env = Planning.importImage(g, "env", rgba8(16, 16), ResourceState.after(Access.FRAGMENT_SAMPLED), null);
            ImageHandle target = Planning.importImage(g, "target", rgba8(16, 16), ResourceState.after(Access.COLOR_ATTACHMENT), null);
            g.addPass("sky", PassKind.GRAPHICS, s -> {
                s.read(env, Access.FRAGMENT_SAMPLED);
                return s.colorAttachment(target, CLEAR);
            }, recordsNothing());
            Planned p = plan(g);
            assertTrue(p.before("sky").stream().noneMatch(b -> b.resource() == env.resource()), "read after read, same layout");
            assertBarrier(barrierFor(p.before("sky"), target), COLOR_OUTPUT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, COLOR_OUTPUT,
                    VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        }

        @Test
        void onePassReadingTwoFreshBuffersGetsOneMergedList() {
            GraphDeclaration g = Planning.graph();
            BufferHandle a = g.addPass("makeA", PassKind.COMPUTE, s -> s.write(s.create("a",
                    new BufferDesc(64, BufferDesc.DEFAULT_USAGE | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT)), Access.COMPUTE_WRITE), recordsNothing());
            BufferHandle b = g.addPass("makeB", PassKind.TRANSFER, s -> s.write(s.create("b", BufferDesc.of(64)), Access.TRANSFER_DST), recordsNothing());
            g.addPass("combine", PassKind.COMPUTE, s -> {
                s.sideEffect();
                s.read(a, Access.COMPUTE_READ);
                s.read(a, Access.COMPUTE_UNIFORM);
                return s.read(b, Access.COMPUTE_READ);
            }, recordsNothing());
            Planned p = plan(g);
            List<BarrierSpec> list = p.before("combine");
            assertEquals(2, list.size(), list.toString());
            assertBarrier(barrierFor(list, a), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ | VK_ACCESS_2_UNIFORM_READ_BIT,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertBarrier(barrierFor(list, b), TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, STORAGE_READ, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void oneImageInTwoLayoutsInOnePassIsRejected() {
            GraphDeclaration g = Planning.graph();
            ImageHandle img = g.addPass("make", PassKind.COMPUTE, s -> s.write(s.create("img", rgba8(8, 8)), Access.COMPUTE_WRITE), recordsNothing());
            g.addPass("both", PassKind.COMPUTE, s -> {
                s.sideEffect();
                s.read(img, Access.COMPUTE_SAMPLED);
                return s.read(img, Access.COMPUTE_READ);
            }, recordsNothing());
            GraphPlan plan = g.compile();
            GraphException e = rejects(() -> BarrierPlanner.plan(g, plan, s -> ResourceState.UNUSED));
            assertNames(e, "both", "img");
            assertTrue(e.getMessage().contains("two layouts"), e.getMessage());
        }

        @Test
        void transferPassCopyingWithinOneBuffer() {
            // vkCmdCopyBuffer with src == dst (disjoint regions, e.g. compaction): a buffer has no layout to conflict.
            GraphDeclaration g = Planning.graph();
            BufferHandle t = g.addPass("fill", PassKind.TRANSFER, s -> s.write(s.create("list", BufferDesc.of(256)), Access.TRANSFER_DST),
                    recordsNothing());
            BufferHandle compacted = g.addPass("compact", PassKind.TRANSFER, s -> {
                s.read(t, Access.TRANSFER_SRC);
                return s.write(t, Access.TRANSFER_DST);
            }, recordsNothing());
            consume(g, "use", compacted);
            Planned p = plan(g);
            assertBarrier(barrierFor(p.before("compact"), t), TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, TRANSFER,
                    VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertBarrier(barrierFor(p.before("use"), t), TRANSFER, VK_ACCESS_2_TRANSFER_WRITE_BIT, COMPUTE, STORAGE_READ,
                    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void historyReadsThePreviousVersionAndWritesTheCurrent() {
            GraphDeclaration g = Planning.graph();
            GraphDeclaration.History h = Planning.history(g, "running", 16, ResourceState.after(Access.COMPUTE_WRITE),
                    ResourceState.after(Access.COMPUTE_READ));
            BufferHandle next = g.addPass("accumulate", PassKind.COMPUTE, s -> {
                s.read(h.previous(), Access.COMPUTE_READ);
                return s.write(h.current(), Access.COMPUTE_WRITE);
            }, recordsNothing());
            assertEquals(h.current().resource(), next.resource());
            assertEquals(1, next.version());
            Planned p = plan(g);
            assertEquals(List.of("accumulate"), passNames(g, p.plan().order()), "the history writer is kept without readers");
            List<BarrierSpec> list = p.before("accumulate");
            assertEquals(2, list.size(), list.toString());
            assertBarrier(barrierFor(list, h.previous()), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
            assertBarrier(barrierFor(list, h.current()), COMPUTE, 0, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
            ResourceState cur = p.barriers().finalStates()[h.current().resource()];
            assertEquals(COMPUTE, cur.writeStages(), "next frame finds the current copy written by compute: " + cur);
            assertEquals(STORAGE_WRITE, cur.writeAccess());
        }

        @Test
        void freshHistoryNeedsNoBarrier() {
            GraphDeclaration g = Planning.graph();
            GraphDeclaration.History h = Planning.history(g, "running", 16, ResourceState.UNUSED, ResourceState.UNUSED);
            BufferHandle next = g.addPass("accumulate", PassKind.COMPUTE, s -> {
                s.read(h.previous(), Access.COMPUTE_READ);
                return s.write(h.current(), Access.COMPUTE_WRITE);
            }, recordsNothing());
            consume(g, "show", next);
            Planned p = plan(g);
            assertEquals(List.of(), p.before("accumulate"));
            assertBarrier(barrierFor(p.before("show"), next), COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_READ, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_UNDEFINED);
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Nested
    class Aliasing {
        /** a: [0, 2], long: [1, 4], b: [3, 4] in plan positions. */
        private record Graph(GraphDeclaration g, BufferHandle out, BufferHandle a, BufferHandle longLived, BufferHandle b) {
        }

        private Graph build() {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 256, ResourceState.UNUSED, null);
            BufferHandle a = produce(g, "makeA", "a", 1024);
            BufferHandle longLived = produce(g, "makeLong", "long", 4096);
            BufferHandle o1 = g.addPass("useA", PassKind.COMPUTE, s -> {
                s.read(a, Access.COMPUTE_READ);
                return s.write(out, Access.COMPUTE_WRITE);
            }, recordsNothing());
            BufferHandle b = produce(g, "makeB", "b", 1000);
            g.addPass("useB", PassKind.COMPUTE, s -> {
                s.read(b, Access.COMPUTE_READ);
                s.read(longLived, Access.COMPUTE_READ);
                return s.write(o1, Access.COMPUTE_WRITE);
            }, recordsNothing());
            return new Graph(g, out, a, longLived, b);
        }

        @Test
        void disjointLifetimesShareASlotOverlappingOnesDoNot() {
            Graph x = build();
            GraphPlan plan = x.g().compile();
            int[] slotOf = plan.slotOf();
            assertEquals(2, plan.slots().size(), plan.slots().toString());
            assertEquals(slotOf[x.a().resource()], slotOf[x.b().resource()], "a ends before b starts");
            assertNotEquals(slotOf[x.a().resource()], slotOf[x.longLived().resource()], "a and long overlap");
            assertNotEquals(slotOf[x.b().resource()], slotOf[x.longLived().resource()], "b and long overlap");
            assertEquals(-1, slotOf[x.out().resource()], "imports get no slot");
            GraphPlan.Slot shared = plan.slots().get(slotOf[x.a().resource()]);
            assertEquals(List.of(x.a().resource(), x.b().resource()), shared.members());
            assertEquals(1024, shared.bytes(), "a slot is as large as its largest member");
            assertFalse(shared.image());
            assertEquals(1024 + 4096 + 1000, plan.requestedBytes(x.g()));
            assertEquals(1024 + 4096, plan.allocatedBytes());
            long saved = plan.requestedBytes(x.g()) - plan.allocatedBytes();
            assertTrue(saved > 0);
            assertEquals(1000, saved);
        }

        @Test
        void secondOccupantOrdersAgainstTheFirst() {
            Graph x = build();
            Planned p = plan(x.g());
            assertEquals(List.of(), p.before("makeA"), "untouched slot");
            assertEquals(List.of(), p.before("makeLong"), "untouched slot");
            BarrierSpec handover = barrierFor(p.before("makeB"), x.b());
            assertTrue(handover.aliasing(), handover.toString());
            assertFalse(handover.image());
            assertBarrier(handover, COMPUTE, STORAGE_WRITE, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
        }

        @Test
        void firstOccupantOrdersAgainstWhereTheSlotWasLeft() {
            Graph x = build();
            GraphPlan plan = x.g().compile();
            int shared = plan.slotOf()[x.a().resource()];
            ResourceState touched = ResourceState.after(Access.TRANSFER_SRC);
            Planned p = plan(x.g(), s -> s == shared ? touched : ResourceState.UNUSED);
            BarrierSpec alias = barrierFor(p.before("makeA"), x.a());
            assertTrue(alias.aliasing(), alias.toString());
            assertBarrier(alias, TRANSFER, 0, COMPUTE, STORAGE_WRITE, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED);
            assertEquals(List.of(), p.before("makeLong"), "the other slot was untouched");
            assertTrue(barrierFor(p.before("makeB"), x.b()).aliasing());
            // Where the slot is left, for the next frame: b's last state (read by compute after a compute write).
            ResourceState left = p.barriers().finalStates()[x.b().resource()];
            assertEquals(COMPUTE, left.readStages(), left.toString());
            assertEquals(STORAGE_WRITE, left.writeAccess());
            assertEquals(left, p.barriers().finalStates()[x.a().resource()], "transients report their slot's final state");
        }

        @Test
        void aliasedImagesGetALayoutTransitionFromUndefined() {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, null);
            ImageHandle i1 = g.addPass("make1", PassKind.COMPUTE, s -> s.write(s.create("i1", rgba8(32, 32)), Access.COMPUTE_WRITE), recordsNothing());
            BufferHandle o1 = g.addPass("use1", PassKind.COMPUTE, s -> {
                s.read(i1, Access.COMPUTE_SAMPLED);
                return s.write(out, Access.COMPUTE_WRITE);
            }, recordsNothing());
            ImageHandle i2 = g.addPass("make2", PassKind.GRAPHICS, s -> s.colorAttachment(s.create("i2", rgba8(16, 16)), CLEAR), recordsNothing());
            ImageHandle other = g.addPass("make3", PassKind.COMPUTE,
                    s -> s.write(s.create("hdr", ImageDesc.of(16, 16, VK_FORMAT_R16G16B16A16_SFLOAT)), Access.COMPUTE_WRITE), recordsNothing());
            g.addPass("use2", PassKind.COMPUTE, s -> {
                s.read(i2, Access.COMPUTE_SAMPLED);
                s.read(other, Access.COMPUTE_SAMPLED);
                return s.write(o1, Access.COMPUTE_WRITE);
            }, recordsNothing());
            Planned p = plan(g);
            int[] slotOf = p.plan().slotOf();
            assertEquals(slotOf[i1.resource()], slotOf[i2.resource()], "same format and usage, disjoint lifetimes");
            assertNotEquals(slotOf[i1.resource()], slotOf[other.resource()], "a different format does not alias");
            assertEquals(32L * 32 * 4, p.plan().slots().get(slotOf[i1.resource()]).bytes());
            BarrierSpec handover = barrierFor(p.before("make2"), i2);
            assertTrue(handover.aliasing() && handover.image(), handover.toString());
            // i1's write was made available by its transition to SHADER_READ_ONLY; only its readers remain to wait for.
            assertBarrier(handover, COMPUTE, 0, COLOR_OUTPUT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        }

        @Test
        void buffersAndImagesNeverShareASlot() {
            GraphDeclaration g = Planning.graph();
            BufferHandle buf = produce(g, "makeBuf", "buf", 4096);
            consume(g, "useBuf", buf);
            ImageHandle img = g.addPass("makeImg", PassKind.COMPUTE, s -> s.write(s.create("img", rgba8(32, 32)), Access.COMPUTE_WRITE), recordsNothing());
            consume(g, "useImg", img);
            GraphPlan plan = g.compile();
            assertNotEquals(plan.slotOf()[buf.resource()], plan.slotOf()[img.resource()]);
            assertEquals(0, plan.requestedBytes(g) - plan.allocatedBytes());
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Nested
    class Names {
        /** Duplicates are refused in small frames (found by a scan) and large ones (found through a set). */
        @Test
        void duplicateResourceAndPassNamesAreRefusedAtAnySize() {
            for (int size : new int[]{1, 5, 63, 64, 65, 200}) {
                GraphDeclaration g = Planning.graph();
                for (int i = 0; i < size; i++) {
                    produce(g, "p" + i, "r" + i, 64);
                }
                for (int i : new int[]{0, size / 2, size - 1}) {
                    int at = i;
                    GraphException resource = rejects(() -> g.createBuffer("r" + at, BufferDesc.of(64)));
                    assertTrue(resource.getMessage().contains("'r" + at + "' is declared twice"), resource.getMessage());
                    GraphException pass = rejects(() -> produce(g, "p" + at, "fresh" + at, 64));
                    assertTrue(pass.getMessage().contains("'p" + at + "' is declared twice"), pass.getMessage());
                }
                g.createBuffer("r" + size, BufferDesc.of(64));   // a new name is accepted
                produce(g, "p" + size, "other", 64);
                assertEquals(size + 2, g.resources.size(), "size " + size);
            }
        }
    }

    @Nested
    class TopologyCaching {
        private GraphDeclaration frame(long size, boolean extraReader) {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, ResourceState.UNUSED, Access.HOST_READ);
            BufferHandle t = produce(g, "make", "t", size);
            g.addPass("copy", PassKind.TRANSFER, s -> {
                s.read(t, Access.TRANSFER_SRC);
                return s.write(out, Access.TRANSFER_DST);
            }, recordsNothing());
            if (extraReader) {
                consume(g, "debug", t);
            }
            return g;
        }

        /** As {@link #frame}, with the import "out" starting the frame in {@code entry}. */
        private GraphDeclaration frameFrom(ResourceState entry) {
            GraphDeclaration g = Planning.graph();
            BufferHandle out = Planning.importBuffer(g, "out", 64, entry, Access.HOST_READ);
            BufferHandle t = produce(g, "make", "t", 64);
            g.addPass("copy", PassKind.TRANSFER, s -> {
                s.read(t, Access.TRANSFER_SRC);
                return s.write(out, Access.TRANSFER_DST);
            }, recordsNothing());
            return g;
        }

        /** Transient memory with nothing behind it: counts what the cache creates and releases. */
        private static final class CountingMemory implements dev.tally.internal.graph.TopologyCache.Memory {
            int created;
            int released;

            @Override
            public Transients create(GraphDeclaration g, GraphPlan plan, boolean poison) {
                created++;
                return new Transients(plan, poison, g.resources.size());
            }

            @Override
            public void release(Transients transients) {
                released++;
            }
        }

        @Test
        void barriersAreReusedOnlyWhenEveryInputMatches() {
            var cache = new dev.tally.internal.graph.TopologyCache(new CountingMemory());
            int[] oneLane = {0, 0};
            GraphDeclaration first = frameFrom(ResourceState.UNUSED);
            String key = first.topologyKey();
            var compiled = cache.acquire(key, first, PassOrder.DECLARED, false, 0);
            GraphPlan plan = compiled.plan;
            assertEquals(1, plan.slots().size(), "one transient, one slot");
            BarrierPlanner.Barriers planned = cache.barriers(compiled, first, oneLane, QueueLanes.ONE);
            GraphDeclaration again = frameFrom(ResourceState.UNUSED);
            var compiledAgain = cache.acquire(again.topologyKey(key), again, PassOrder.DECLARED, false, 1);
            assertSame(compiled, compiledAgain, "the same topology: the same compiled entry");
            assertSame(planned, cache.barriers(compiledAgain, again, oneLane.clone(), QueueLanes.ONE),
                    "the same topology, entry states, slot states and lanes: the barriers of the earlier frame");
            assertEquals(1, cache.barrierPlans());
            assertEquals(1, cache.barrierHits());

            // Same topology (same key, same plan), but the import starts the frame written by a compute shader:
            // the copy must wait for that write, which the first frame's barriers do not do.
            GraphDeclaration written = frameFrom(ResourceState.after(Access.COMPUTE_WRITE));
            assertSame(key, written.topologyKey(key), "the entry state is not part of the topology");
            BarrierPlanner.Barriers afterWrite = cache.barriers(compiled, written, oneLane, QueueLanes.ONE);
            BarrierPlanner.Barriers fresh = BarrierPlanner.plan(written, plan, s -> ResourceState.UNUSED);
            assertNotEquals(planned.beforePass(), fresh.beforePass(), "premise: the entry state changes the barriers");
            assertEquals(fresh.beforePass(), afterWrite.beforePass());
            assertEquals(fresh.epilogue(), afterWrite.epilogue());

            // The transient's memory slot was left written by an earlier frame: its first use must order after that.
            ResourceState[] slotWritten = {ResourceState.after(Access.TRANSFER_DST)};
            compiled.transients.slotStates[0] = slotWritten[0];
            BarrierPlanner.Barriers afterSlot = cache.barriers(compiled, first, oneLane, QueueLanes.ONE);
            BarrierPlanner.Barriers freshSlot = BarrierPlanner.plan(first, plan, s -> slotWritten[s]);
            assertNotEquals(planned.beforePass(), freshSlot.beforePass(), "premise: the slot's state changes the barriers");
            assertEquals(freshSlot.beforePass(), afterSlot.beforePass());
            compiled.transients.slotStates[0] = ResourceState.UNUSED;

            // Two lanes, then the producer moves to the async lane: the pass's lane changes the batches.
            BarrierPlanner.Barriers bothMain = cache.barriers(compiled, first, oneLane, QueueLanes.SAME_FAMILY);
            int[] split = {QueueLanes.ASYNC, QueueLanes.MAIN};
            BarrierPlanner.Barriers twoLanes = cache.barriers(compiled, first, split, QueueLanes.SAME_FAMILY);
            assertEquals(BarrierPlanner.plan(first, plan, s -> ResourceState.UNUSED, split, QueueLanes.SAME_FAMILY).batches(), twoLanes.batches());
            assertNotEquals(bothMain.batches(), twoLanes.batches());
            assertEquals(5, cache.barrierPlans(), "every changed input planned anew");

            // And the first frame's inputs still find the first frame's barriers.
            assertSame(planned, cache.barriers(compiled, frameFrom(ResourceState.UNUSED), oneLane, QueueLanes.ONE));
        }

        @Test
        void oneEvictionPolicyReleasesWholeTopologies() {
            CountingMemory memory = new CountingMemory();
            var cache = new dev.tally.internal.graph.TopologyCache(memory);
            GraphDeclaration a = frame(64, false);
            var kept = cache.acquire(a.topologyKey(), a, PassOrder.DECLARED, false, 0);
            // Another topology every frame: "a" is released with its memory once unused for more than KEEP_UNUSED_FRAMES frames.
            int f = 1;
            for (; f <= dev.tally.internal.graph.TopologyCache.KEEP_UNUSED_FRAMES; f++) {
                GraphDeclaration other = frame(100 + f, false);
                cache.acquire(other.topologyKey(), other, PassOrder.DECLARED, false, f);
            }
            assertEquals(0, memory.released, "unused for exactly KEEP_UNUSED_FRAMES frames: kept");
            assertSame(kept, cache.acquire(a.topologyKey(), frame(64, false), PassOrder.DECLARED, false, f), "still cached, not compiled again");
            long compiles = cache.compiles();
            for (int g = 1; g <= dev.tally.internal.graph.TopologyCache.KEEP_UNUSED_FRAMES + 1; g++) {
                GraphDeclaration other = frame(1000 + g, false);
                cache.acquire(other.topologyKey(), other, PassOrder.DECLARED, false, f + g);
            }
            assertEquals(memory.created - cache.size(), memory.released, "every topology not cached any more released its memory");
            assertNotSame(kept, cache.acquire(a.topologyKey(), frame(64, false), PassOrder.DECLARED, false, f + 20), "released: compiled again");
            assertEquals(compiles + dev.tally.internal.graph.TopologyCache.KEEP_UNUSED_FRAMES + 2, cache.compiles());

            // Within the window, more topologies than CAPACITY: the least recently used go first.
            var bounded = new dev.tally.internal.graph.TopologyCache(new CountingMemory());
            for (int i = 0; i < 2 * dev.tally.internal.graph.TopologyCache.CAPACITY; i++) {
                GraphDeclaration g = frame(10_000 + i, false);
                bounded.acquire(g.topologyKey(), g, PassOrder.DECLARED, false, 0);
                assertTrue(bounded.size() <= dev.tally.internal.graph.TopologyCache.CAPACITY, "at most CAPACITY topologies");
            }
            long before = bounded.compiles();
            GraphDeclaration newest = frame(10_000 + 2 * dev.tally.internal.graph.TopologyCache.CAPACITY - 1, false);
            bounded.acquire(newest.topologyKey(), newest, PassOrder.DECLARED, false, 0);
            assertEquals(before, bounded.compiles(), "the most recent topology is still cached");
            GraphDeclaration oldest = frame(10_000, false);
            bounded.acquire(oldest.topologyKey(), oldest, PassOrder.DECLARED, false, 0);
            assertEquals(before + 1, bounded.compiles(), "the least recently used was released");
        }

        @Test
        void sameDeclarationSameKeyAnyChangeANewKey() {
            assertEquals(frame(64, false).topologyKey(), frame(64, false).topologyKey());
            assertNotEquals(frame(64, false).topologyKey(), frame(128, false).topologyKey());
            assertNotEquals(frame(64, false).topologyKey(), frame(64, true).topologyKey());
        }

        @Test
        void previousKeyIsReusedOnlyWhenTheTopologyIsTheSame() {
            String key = frame(64, false).topologyKey();
            assertSame(key, frame(64, false).topologyKey(key), "same topology: the previous key object, no new string");
            for (GraphDeclaration changed : List.of(frame(128, false), frame(64, true), frame(6, false), frame(640, false))) {
                String fresh = changed.topologyKey(key);
                assertNotEquals(key, fresh, "a change (also a prefix or an extension of the key) gives a new key");
                assertEquals(changed.topologyKey(), fresh, "the same key as one built from scratch");
            }
        }

        @Test
        void aTopologyIsCompiledOnce() {
            var cache = new dev.tally.internal.graph.TopologyCache(new CountingMemory());
            GraphDeclaration g0 = frame(64, false);
            GraphPlan first = cache.acquire(g0.topologyKey(), g0, PassOrder.DECLARED, false, 0).plan;
            for (int i = 0; i < 5; i++) {
                GraphDeclaration g = frame(64, false);
                assertSame(first, cache.acquire(g.topologyKey(), g, PassOrder.DECLARED, false, i + 1).plan);
            }
            GraphDeclaration changed = frame(64, true);
            GraphPlan other = cache.acquire(changed.topologyKey(), changed, PassOrder.DECLARED, false, 6).plan;
            assertNotSame(first, other);
            assertEquals(2, cache.compiles());
            GraphDeclaration g = frame(64, false);
            GraphPlan reused = cache.acquire(g.topologyKey(), g, PassOrder.DECLARED, false, 7).plan;
            BarrierPlanner.Barriers fromCache = BarrierPlanner.plan(g, reused, s -> ResourceState.UNUSED);
            BarrierPlanner.Barriers fresh = BarrierPlanner.plan(g, g.compile(), s -> ResourceState.UNUSED);
            assertEquals(fresh.beforePass(), fromCache.beforePass());
            assertEquals(fresh.epilogue(), fromCache.epilogue());
        }
    }
}

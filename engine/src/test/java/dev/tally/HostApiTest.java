package dev.tally;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.KernelBindings;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * What a host that opened Tally makes its own work with, through the exported API only: a compute kernel in a
 * pass of its own, the device's deferred destruction, and the counters it reads (lavapipe, validation on).
 */
class HostApiTest extends GpuTestBase {
    private static final int COUNT = 1000;
    private static final float A = 1.5f, B = 2f;

    /** One frame: {@code declare} adds passes, the frame is recorded into Tally's command buffer and submitted. */
    private void frame(FrameCommands commands, Consumer<FrameGraph> declare) {
        Frame frame = runtime.beginFrame();
        declare.accept(frame.graph());
        VkCommandBuffer cmd = commands.begin(frame);
        frame.record(cmd);
        commands.end(cmd);
        frame.submit(cmd);
    }

    private static ByteBuffer fillPush(int count) {
        return ByteBuffer.allocateDirect(12).order(ByteOrder.nativeOrder()).putInt(0, count).putFloat(4, A).putFloat(8, B);
    }

    @Test
    void aHostKernelWritesExactValuesInAPassOfItsOwn() {
        try (ComputeKernel fill = runtime.computeKernel("test_fill.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 12);
             GpuBuffer out = runtime.createBuffer("host.out", 4L * COUNT, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK);
             FrameCommands commands = runtime.frameCommands()) {
            KernelBindings bindings = fill.bindings();
            ByteBuffer push = fillPush(COUNT);
            frame(commands, g -> {
                BufferHandle target = g.importBuffer("host.out", out, Access.HOST_READ);
                g.addPass("host.fill", PassKind.COMPUTE, b -> b.write(target, Access.COMPUTE_WRITE),
                        (h, c) -> fill.dispatch(c.cmd(), bindings.clear().buffer(c.buffer(h), 0, 4L * COUNT), push, 4, 1));
            });
            runtime.device().waitIdle();
            out.invalidate(0, out.size());
            for (int i = 0; i < COUNT; i++) {
                assertEquals(A + (i % 3) * B, MemoryUtil.memGetFloat(out.mappedAddress() + 4L * i), "value " + i);
            }
            assertTrue(runtime.lastGraphDot().contains("host.fill"), runtime.lastGraphDot());
        }
    }

    @Test
    void aKernelRefusesBindingsAndPushConstantsThatAreNotTheDeclaredOnes() {
        try (ComputeKernel fill = runtime.computeKernel("test_fill.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 12);
             GpuBuffer out = runtime.createBuffer("host.refused", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
             GpuImage image = runtime.createImage("host.image", 4, 4, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT)) {
            KernelBindings bindings = fill.bindings();
            // The checks come before anything is recorded, so no command buffer is needed to see them.
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                    () -> fill.dispatch(null, bindings.clear(), fillPush(1), 1, 1));
            assertEquals("kernel test_fill.comp: 0 bindings given, 1 declared", none.getMessage());
            IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
                    () -> fill.dispatch(null, bindings.clear().storageImage(image), fillPush(1), 1, 1));
            assertEquals("kernel test_fill.comp: binding 0 is declared STORAGE_BUFFER but was given another kind", kind.getMessage());
            IllegalArgumentException push = assertThrows(IllegalArgumentException.class,
                    () -> fill.dispatch(null, bindings.clear().buffer(out, 0, 64), ByteBuffer.allocateDirect(8), 1, 1));
            assertEquals("kernel test_fill.comp: 8 push-constant bytes given, 12 declared", push.getMessage());
            KernelBindings foreign = new KernelBindings() {
                @Override public KernelBindings clear() { return this; }
                @Override public KernelBindings buffer(GpuBuffer buffer, long byteOffset, long byteSize) { return this; }
                @Override public KernelBindings storageImage(GpuImage i) { return this; }
                @Override public KernelBindings sampled(GpuImage i, long sampler) { return this; }
                @Override public int size() { return 1; }
            };
            IllegalArgumentException made = assertThrows(IllegalArgumentException.class, () -> fill.dispatch(null, foreign, fillPush(1), 1, 1));
            assertEquals("kernel test_fill.comp: bindings not made by ComputeKernel.bindings()", made.getMessage());
            // Past the device's group-count limit in y (x's may be Integer.MAX_VALUE; lavapipe's are 65535): refused before the driver sees it.
            KernelBindings ok = fill.bindings();
            ok.buffer(out, 0, 64);
            int limitY = dev.tally.internal.engine.Engine.of(runtime).context().info().maxComputeWorkGroupCountY();
            assertTrue(limitY < Integer.MAX_VALUE, "premise: a y limit below Integer.MAX_VALUE, got " + limitY);
            IllegalArgumentException groups = assertThrows(IllegalArgumentException.class, () -> fill.dispatch(null, ok, fillPush(1), 1, limitY + 1));
            assertTrue(groups.getMessage().startsWith("kernel test_fill.comp: 1 x " + (limitY + 1) + " workgroups; device '"), groups.getMessage());
            assertTrue(groups.getMessage().contains("(maxComputeWorkGroupCount)"), groups.getMessage());
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> fill.dispatch(null, ok, fillPush(1), -1, 1));
            assertTrue(negative.getMessage().startsWith("kernel test_fill.comp: -1 x 1 workgroups"), negative.getMessage());
        }
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> runtime.computeKernel("test_fill.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 13));
        assertTrue(size.getMessage().startsWith("computeKernel test_fill.comp: pushBytes 13 is not a multiple of 4"), size.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> runtime.computeKernel("test_draw.frag", Map.of(), List.of(), 0));
        assertTrue(name.getMessage().contains("'test_draw.frag' is not a compute shader"), name.getMessage());
        // A host kernel named like one of Tally's own would be read from (or compiled as) the engine's module.
        IllegalArgumentException engine = assertThrows(IllegalArgumentException.class,
                () -> runtime.computeKernel("readback_gather.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 0));
        assertTrue(engine.getMessage().startsWith("computeKernel: shader readback_gather.comp is the name of one of Tally's own shaders; give the host's"
                + " shader a name of its own (Tally's: exposure.comp, histogram.comp, "), engine.getMessage());
    }

    @Test
    void diagnosticsCountTheMemoryAndObjectsTallyMakesAndFrees() {
        Diagnostics d = runtime.diagnostics();
        assertTrue(d.validationEnabled());
        runtime.device().waitIdle();
        long allocations = d.liveAllocations(), bytes = d.liveAllocationBytes(), objects = d.objectsCreated();
        GpuBuffer buffer = runtime.createBuffer("host.counted", 1 << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
        assertEquals(allocations + 1, d.liveAllocations());
        assertTrue(d.liveAllocationBytes() >= bytes + (1 << 20), () -> d.liveAllocationBytes() + " bytes");
        assertTrue(d.objectsCreated() > objects);
        buffer.close();
        runtime.device().waitIdle();   // the destruction was deferred; waiting runs it
        assertEquals(allocations, d.liveAllocations());
        assertEquals(bytes, d.liveAllocationBytes());
    }

    @Test
    void deferredDestructionWaitsForTheGpu() {
        boolean[] ran = {false};
        runtime.device().defer(() -> ran[0] = true);
        assertTrue(ran[0], "with nothing in flight, deferred work runs at once");
        ran[0] = false;
        try (ComputeKernel busy = runtime.computeKernel("test_busy.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 4);
             GpuBuffer scratch = runtime.createBuffer("host.deferred", 4L * 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
             FrameCommands commands = runtime.frameCommands()) {
            KernelBindings bindings = busy.bindings();
            // Long enough (hundreds of milliseconds on lavapipe) that the frame is still running when defer is called.
            ByteBuffer push = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).putInt(0, 4_000_000);
            frame(commands, g -> {
                BufferHandle h = g.importBuffer("host.deferred", scratch, null);
                g.addPass("host.busy", PassKind.COMPUTE, b -> {
                    b.sideEffect();
                    return b.write(h, Access.COMPUTE_READ_WRITE);
                }, (x, c) -> busy.dispatch(c.cmd(), bindings.clear().buffer(c.buffer(x), 0, 4L * 64), push, 1, 1));
            });
            runtime.device().defer(() -> ran[0] = true);
            assertFalse(ran[0], "deferred work ran while its frame was still on the GPU");
            runtime.device().waitIdle();
            assertTrue(ran[0], "deferred work did not run once the GPU was idle");
        }
        IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class, () -> runtime.device().defer(null));
        assertTrue(nothing.getMessage().startsWith("Device.defer: destroy is null"), nothing.getMessage());
    }

    @Test
    void aCpuThatRunsAheadOfTheGpuIsCountedAsPacing() {
        runtime.device().waitIdle();
        long before = runtime.diagnostics().pacingWaits();
        double micros = runtime.diagnostics().pacingWaitMicros();
        try (ComputeKernel busy = runtime.computeKernel("test_busy.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 4);
             GpuBuffer scratch = runtime.createBuffer("host.busy", 4L * 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE);
             FrameCommands commands = runtime.frameCommands()) {
            KernelBindings bindings = busy.bindings();
            ByteBuffer push = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).putInt(0, 400_000);
            // Each frame keeps the GPU busy for tens of milliseconds and the CPU does nothing: frames in flight
            // fill up and a later beginFrame blocks for a slot.
            for (int f = 0; f < runtime.framesInFlight() + 4; f++) {
                frame(commands, g -> {
                    BufferHandle h = g.importBuffer("host.busy", scratch, null);
                    g.addPass("host.busy", PassKind.COMPUTE, b -> {
                        b.sideEffect();
                        return b.write(h, Access.COMPUTE_READ_WRITE);
                    }, (x, c) -> busy.dispatch(c.cmd(), bindings.clear().buffer(c.buffer(x), 0, 4L * 64), push, 1, 1));
                });
            }
            // Read before the wait below, which is a wait of another kind (counted apart, in otherWaits).
            assertTrue(runtime.diagnostics().pacingWaits() > before, "no pacing wait counted");
            assertTrue(runtime.diagnostics().pacingWaitMicros() > micros);
            long other = runtime.diagnostics().otherWaits();
            runtime.device().waitIdle();
            assertEquals(other + 1, runtime.diagnostics().otherWaits(), "waitIdle is not counted as another wait");
        }
    }
}

package dev.tally.vk;

import dev.tally.config.Config;
import dev.tally.graph.GraphRuntime;
import dev.tally.reduce.DeviceArray;
import dev.tally.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import dev.tally.reduce.ReduceSettings;
import dev.tally.reduce.Reducer;
import dev.tally.shader.ShaderCompiler;
import dev.tally.shader.ShaderSources;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Tally on a renderer's own instance, device, queue and VMA allocator: it works, and it destroys none of them. */
class WrappedContextTest {
    @Test
    void reducesOnTheCallersDeviceAndLeavesItAlive() {
        try (VulkanContext renderer = VulkanContext.create(ContextOptions.headless().withValidation(true))) {
            float[] data = new float[1000];
            java.util.Arrays.fill(data, 0.5f);
            try (VulkanContext tally = VulkanContext.wrap(renderer.options(), renderer.instance(), renderer.physicalDevice(),
                    renderer.device(), renderer.queueFamily(), renderer.queue(), renderer.allocator(), renderer.debugUtils());
                 ShaderCompiler compiler = new ShaderCompiler(ShaderSources.packaged(), null);
                 Reducer reducer = new Reducer(tally, compiler, null, ReduceSettings.resolve(Config.defaults(), tally.info()));
                 GraphRuntime graphs = new GraphRuntime(tally)) {
                try (DeviceArray array = DeviceArray.of(tally, "wrapped.input", data);
                     OneShotReduction one = new OneShotReduction(tally, reducer)) {
                    assertEquals(500f, one.reduce(ReduceOp.SUM, array).value());
                }
                assertEquals(renderer.info().name(), tally.info().name());
            }
            // The renderer's device and allocator still work after Tally's context closed.
            try (GpuBuffer b = new GpuBuffer(renderer, "after", 64, org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
                renderer.submitAndWait(cmd -> org.lwjgl.vulkan.VK10.vkCmdFillBuffer(cmd, b.handle(), 0, 64, 1));
            }
            renderer.waitIdle();
            assertEquals(0, renderer.validationLog().total(), () -> renderer.validationLog().messages().toString());
        }
    }
}

package dev.tally.demo.bench;

import dev.tally.graph.Access;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.Handle;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassKind;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.*;

/** Passes the GPU benchmarks put around the pass they time: an input cleared to a colour, an output kept from culling. */
final class BenchPasses {
    private BenchPasses() {
    }

    /** Pass {@code name}: {@code image} (created or imported by the caller's builder) cleared to (r, g, b, 1). */
    static ImageHandle clear(FrameGraph g, String name, Function<PassBuilder, ImageHandle> image,
                             float r, float gr, float b) {
        return g.addPass(name, PassKind.TRANSFER, pb -> pb.write(image.apply(pb), Access.TRANSFER_DST), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkClearColorValue color = VkClearColorValue.calloc(stack).float32(0, r).float32(1, gr).float32(2, b).float32(3, 1);
                VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
                vkCmdClearColorImage(c.cmd(), c.image(h).handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color, range);
            }
        });
    }

    /** A side-effect pass reading {@code result} with {@code access}, so the timed pass that writes it is never culled. */
    static void keep(FrameGraph g, Handle result, Access access) {
        g.addPass("keep", access == Access.TRANSFER_SRC ? PassKind.TRANSFER : PassKind.COMPUTE, b -> {
            b.sideEffect();
            return b.read(result, access);
        }, (h, c) -> {
        });
    }
}

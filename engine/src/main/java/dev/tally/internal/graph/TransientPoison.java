package dev.tally.internal.graph;

import dev.tally.graph.Access;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * Debug aid: fills a transient's memory with NaN before its first use in a frame, so that a pass reading
 * memory nobody wrote this frame (a missing dependency, a wrong alias) shows NaN instead of last frame's
 * plausible values. Ordered after everything earlier on the queue; the pass's own first-use barrier is
 * widened to follow the fill. The fill waits at ALL_TRANSFER, not CLEAR: validation counts
 * vkCmdFillBuffer as a copy-stage write, and a barrier to CLEAR alone leaves it racing the reads of the
 * memory's previous occupant.
 */
final class TransientPoison {
    private static final int NAN_BITS = 0x7FC00000;

    private TransientPoison() {
    }

    static void fill(VkCommandBuffer cmd, TrackedImage image, TrackedBuffer buffer) {
        try (MemoryStack stack = stackPush()) {
            if (buffer != null) {
                VkBufferMemoryBarrier2.Buffer before = VkBufferMemoryBarrier2.calloc(1, stack);
                before.get(0).sType$Default().srcStageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT).srcAccessMask(VK_ACCESS_2_MEMORY_WRITE_BIT)
                        .dstStageMask(VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT).dstAccessMask(VK_ACCESS_2_TRANSFER_WRITE_BIT)
                        .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                        .buffer(buffer.handle()).offset(0).size(VK_WHOLE_SIZE);
                vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pBufferMemoryBarriers(before));
                vkCmdFillBuffer(cmd, buffer.handle(), 0, VK_WHOLE_SIZE, NAN_BITS);
                return;
            }
            VkImageMemoryBarrier2.Buffer before = VkImageMemoryBarrier2.calloc(1, stack);
            before.get(0).sType$Default().srcStageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT).srcAccessMask(VK_ACCESS_2_MEMORY_WRITE_BIT)
                    .dstStageMask(VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT).dstAccessMask(VK_ACCESS_2_TRANSFER_WRITE_BIT)
                    .oldLayout(VK_IMAGE_LAYOUT_UNDEFINED).newLayout(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
                    .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED).image(image.handle());
            before.get(0).subresourceRange().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
            vkCmdPipelineBarrier2(cmd, VkDependencyInfo.calloc(stack).sType$Default().pImageMemoryBarriers(before));
            VkClearColorValue nan = VkClearColorValue.calloc(stack);
            nan.uint32(0, NAN_BITS).uint32(1, NAN_BITS).uint32(2, NAN_BITS).uint32(3, NAN_BITS);
            VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
            vkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, nan, range);
        }
    }

    /**
     * Before pass {@code pos} of {@code plan}: every transient it uses for the first time this frame is
     * filled with NaN through {@code backend}, and its first-use barrier is widened to follow the fill.
     * Returns the barriers to record instead of {@code planned}.
     */
    static List<BarrierSpec> beforePass(GraphBackend backend, VkCommandBuffer cmd, GraphDeclaration g, GraphPlan plan, int pos, Object[] objects,
                                        List<BarrierSpec> planned) {
        List<BarrierSpec> out = new ArrayList<>(planned);
        for (Pass.Use u : AccessTransitions.merged(g, g.passes.get(plan.order().get(pos)))) {
            GraphResource r = g.resources.get(u.resource());
            if (!r.transientResource() || plan.firstUse()[r.id] != pos) {
                continue;
            }
            backend.poison(cmd, objects[r.id]);
            boolean found = false;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).resource() == r.id) {
                    out.set(i, afterFill(out.get(i)));
                    found = true;
                }
            }
            if (!found) {
                Access a = u.access();
                out.add(afterFill(new BarrierSpec(r.id, r.image, true, 0, 0, a.stages(), a.access(), VK_IMAGE_LAYOUT_UNDEFINED,
                        r.image ? a.layout() : VK_IMAGE_LAYOUT_UNDEFINED)));
            }
        }
        return out;
    }

    /** The first-use barrier that follows a fill: from the clear (and everything earlier), out of TRANSFER_DST for images. */
    static BarrierSpec afterFill(BarrierSpec b) {
        return new BarrierSpec(b.resource(), b.image(), b.aliasing(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                b.dstStages(), b.dstAccess(), b.image() ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : b.oldLayout(), b.newLayout(), b.fromLane(),
                b.toLane());
    }
}

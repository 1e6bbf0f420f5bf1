package dev.tally.internal.graph;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.TimestampQueries;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.EXTDebugUtils;
import org.lwjgl.vulkan.VK12;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkSemaphoreCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreTypeCreateInfo;

import java.nio.LongBuffer;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.vkCmdEndRendering;

/** The graph's backend on a Vulkan device: commands into the caller's command buffers, objects through the context. */
final class VulkanBackend implements GraphBackend {
    private final VulkanContext ctx;
    private final TransientAllocator transients;
    private final TimestampQueries queries;
    /** Made once: a method reference per barrier call would be an object per call. */
    private final java.util.function.IntUnaryOperator familyOf = this::familyOf;
    /** Whether passes are labelled (VK_EXT_debug_utils), and their labels, made once per name. */
    private final boolean labelled;
    private final PassLabels labels = new PassLabels();
    /** The structs of the frame's barrier points, kept from frame to frame. */
    private final BarrierStructs barrierStructs = new BarrierStructs();

    /** @param timestamps how many timestamp queries to keep (none when the device cannot time) */
    VulkanBackend(VulkanContext ctx, int timestamps) {
        this.ctx = ctx;
        this.transients = new TransientAllocator(ctx);
        this.queries = ctx.info().timestampValidBits() > 0 ? new TimestampQueries(ctx, timestamps) : null;
        this.labelled = ctx.names().enabled();
    }

    @Override public VulkanContext context() { return ctx; }
    @Override public long completedValue() { return ctx.completedValue(); }
    @Override public boolean reached(long value) { return ctx.reached(value); }
    @Override public int framesInFlight() { return ctx.options().framesInFlight(); }

    @Override
    public QueueLanes asyncLanes(boolean splitOnOneQueue) {
        if (ctx.asyncQueue() != null) {
            return ctx.asyncQueueFamily() != ctx.queueFamily() ? QueueLanes.OTHER_FAMILY : QueueLanes.SAME_FAMILY;
        }
        return splitOnOneQueue ? QueueLanes.SAME_FAMILY : QueueLanes.ONE;
    }

    @Override
    public void barriers(VkCommandBuffer cmd, int point, List<BarrierSpec> specs, Object[] objects) {
        if (specs.isEmpty()) {
            return;
        }
        barrierStructs.record(cmd, point, specs, objects, familyOf);
    }

    /** The queue family of a lane for an ownership transfer; IGNORED for a barrier within one queue. */
    private int familyOf(int lane) {
        if (lane < 0) {
            return VK_QUEUE_FAMILY_IGNORED;
        }
        return lane == QueueLanes.ASYNC ? ctx.asyncQueueFamily() : ctx.queueFamily();
    }

    @Override
    public void beginLabel(VkCommandBuffer cmd, String name) {
        if (!labelled) {
            return;
        }
        long label = labels.of(name);
        if (label != 0) {
            EXTDebugUtils.nvkCmdBeginDebugUtilsLabelEXT(cmd, label);   // the label made for this name before: no encoding per frame
        } else {
            ctx.beginLabel(cmd, name);
        }
    }

    @Override public void endLabel(VkCommandBuffer cmd) { ctx.endLabel(cmd); }

    /** How many pass names have a kept label. */
    int labelsKept() { return labels.size(); }

    @Override
    public void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, int width, int height) {
        CommandStructs.beginRendering(cmd, p, objects, width, height);
    }

    @Override public void endRendering(VkCommandBuffer cmd) { vkCmdEndRendering(cmd); }

    @Override
    public void fillBuffer(VkCommandBuffer cmd, Object buffer, int word) {
        vkCmdFillBuffer(cmd, ((TrackedBuffer) buffer).handle(), 0, VK_WHOLE_SIZE, word);
    }

    @Override
    public void poison(VkCommandBuffer cmd, Object object) {
        TransientPoison.fill(cmd, object instanceof TrackedImage i ? i : null, object instanceof TrackedBuffer b ? b : null);
    }

    @Override public int timestampCapacity() { return queries == null ? 0 : queries.capacity(); }
    @Override public void resetTimestamps(VkCommandBuffer cmd, int first, int count) { queries.reset(cmd, first, count); }
    @Override public void writeTimestamp(VkCommandBuffer cmd, int query) { queries.write(cmd, query); }
    @Override public boolean readTimestamps(int first, int count, long[] ticks) { return queries.read(first, count, ticks); }
    @Override public void copyTimestamps(VkCommandBuffer cmd, int first, int count) { queries.copy(cmd, first, count); }
    @Override public boolean readCopiedTimestamps(int first, int count, long[] ticks) { return queries.readCopied(first, count, ticks); }
    @Override public double nanos(long startTicks, long endTicks) { return queries.nanos(startTicks, endTicks); }

    @Override
    public long createLaneSemaphore() {
        try (MemoryStack stack = stackPush()) {
            VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default()
                    .semaphoreType(VK12.VK_SEMAPHORE_TYPE_TIMELINE).initialValue(0);
            LongBuffer p = stack.mallocLong(1);
            check(vkCreateSemaphore(ctx.device(), VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type.address()), null, p),
                    "vkCreateSemaphore(lanes)");
            ctx.nameObject(VK_OBJECT_TYPE_SEMAPHORE, p.get(0), "tally.lanes");
            return p.get(0);
        }
    }

    @Override
    public void destroyLaneSemaphore(long semaphore) {
        // The lanes' batches wait on it: destroyed once the device is idle, not when the timeline says their frames are done.
        ctx.deferUntilIdle(() -> vkDestroySemaphore(ctx.device(), semaphore, null));
    }

    @Override public Transients create(GraphDeclaration g, GraphPlan plan, boolean poison) { return transients.create(g, plan, poison); }
    @Override public void release(Transients t) { transients.release(t); }
    @Override public long transientObjectsCreated() { return transients.objectsCreated(); }

    @Override
    public void close() {
        labels.close();   // a label's text and a barrier's structs are read when recorded: nothing recorded later needs them
        barrierStructs.close();
        if (queries != null) {
            queries.close();
        }
    }
}

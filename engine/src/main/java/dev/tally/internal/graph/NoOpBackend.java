package dev.tally.internal.graph;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

/**
 * A backend that records nothing and has no GPU: frames are declared, compiled, given barriers and
 * "recorded" (each pass's execute step runs) as on a device, so that what is measured is Tally's own CPU
 * work. The GPU is always done (every timeline value reached); nothing is timed; each transient is a
 * plain placeholder object, made once per compiled topology.
 */
final class NoOpBackend implements GraphBackend {
    private final int framesInFlight;
    private long objects;

    NoOpBackend(int framesInFlight) {
        this.framesInFlight = framesInFlight;
    }

    @Override public VulkanContext context() { return null; }
    @Override public long completedValue() { return Long.MAX_VALUE; }
    @Override public int framesInFlight() { return framesInFlight; }
    @Override public QueueLanes asyncLanes(boolean splitOnOneQueue) { return splitOnOneQueue ? QueueLanes.SAME_FAMILY : QueueLanes.ONE; }
    @Override public void barriers(VkCommandBuffer cmd, int point, List<BarrierSpec> specs, Object[] objects) { }
    @Override public void beginLabel(VkCommandBuffer cmd, String name) { }
    @Override public void endLabel(VkCommandBuffer cmd) { }
    @Override public void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, int width, int height) { }
    @Override public void endRendering(VkCommandBuffer cmd) { }
    @Override public void fillBuffer(VkCommandBuffer cmd, Object buffer, int word) { }
    @Override public void poison(VkCommandBuffer cmd, Object object) { }
    @Override public int timestampCapacity() { return 0; }
    @Override public void resetTimestamps(VkCommandBuffer cmd, int first, int count) { }
    @Override public void writeTimestamp(VkCommandBuffer cmd, int query) { }
    @Override public boolean readTimestamps(int first, int count, long[] ticks) { return false; }
    @Override public void copyTimestamps(VkCommandBuffer cmd, int first, int count) { }
    @Override public boolean readCopiedTimestamps(int first, int count, long[] ticks) { return false; }
    @Override public double nanos(long startTicks, long endTicks) { return 0; }
    @Override public long createLaneSemaphore() { return 1; }
    @Override public void destroyLaneSemaphore(long semaphore) { }

    @Override
    public Transients create(GraphDeclaration g, GraphPlan plan, boolean poison) {
        Transients t = new Transients(plan, poison, g.resources.size());
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            if (r.transientResource() && plan.slotOf()[r.id] >= 0) {
                t.objects[r.id] = new Object();
                objects++;
            }
        }
        return t;
    }

    @Override public void release(Transients transients) { }
    @Override public long transientObjectsCreated() { return objects; }
    @Override public void close() { }
}

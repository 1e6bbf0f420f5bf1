package dev.tally.internal.graph;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A backend with no GPU: every call the graph makes is kept, in order, for a test to assert on. Transients
 * are {@link Fake} objects (one per transient of a compiled topology); command buffers are never touched.
 */
final class RecordingBackend implements GraphBackend {
    /** What the graph recorded. */
    sealed interface Call permits Barriers, Label, EndLabel, BeginRendering, EndRendering, Fill, Poison, ResetTimestamps, Timestamp, CopyTimestamps {
    }

    /** One barrier point's list, with the object each barrier names (by list index). */
    record Barriers(List<BarrierSpec> specs, List<Object> objects) implements Call {
    }

    record Label(String pass) implements Call {
    }

    record EndLabel() implements Call {
    }

    record BeginRendering(String pass, int width, int height) implements Call {
    }

    record EndRendering() implements Call {
    }

    record Fill(Object buffer, int word) implements Call {
    }

    record Poison(Object object) implements Call {
    }

    record ResetTimestamps(int first, int count) implements Call {
    }

    record CopyTimestamps(int first, int count) implements Call {
    }

    record Timestamp(int query) implements Call {
    }

    /** A transient's object: which transient, of which compiled topology's memory slot. */
    record Fake(String name, int slot, int serial) {
    }

    final List<Call> calls = new ArrayList<>();
    /** What {@link #asyncLanes} offers when asked to split (a second queue of another family, or lanes on one queue). */
    QueueLanes twoLanes = QueueLanes.SAME_FAMILY;
    /** The timeline value the "GPU" has reached; tests move it. */
    long completed;
    int timestampCapacity;
    /** Timestamp reads through the driver's query call, and from memory a frame copied them into. */
    int driverReads, copiedReads;
    int transientSets;
    int transientSetsReleased;
    int laneSemaphores;
    private int fakes;

    @Override public VulkanContext context() { return null; }
    @Override public long completedValue() { return completed; }
    @Override public int framesInFlight() { return 2; }
    @Override public QueueLanes asyncLanes(boolean splitOnOneQueue) { return splitOnOneQueue ? twoLanes : QueueLanes.ONE; }
    @Override
    public void barriers(VkCommandBuffer cmd, int point, List<BarrierSpec> specs, Object[] objects) {
        List<Object> named = new ArrayList<>();
        specs.forEach(b -> named.add(b.resource() >= 0 ? objects[b.resource()] : null));
        calls.add(new Barriers(List.copyOf(specs), named));
    }
    @Override public void beginLabel(VkCommandBuffer cmd, String name) { calls.add(new Label(name)); }
    @Override public void endLabel(VkCommandBuffer cmd) { calls.add(new EndLabel()); }

    @Override
    public void beginRendering(VkCommandBuffer cmd, Pass p, Object[] objects, int width, int height) {
        calls.add(new BeginRendering(p.name, width, height));
    }

    @Override public void endRendering(VkCommandBuffer cmd) { calls.add(new EndRendering()); }
    @Override public void fillBuffer(VkCommandBuffer cmd, Object buffer, int word) { calls.add(new Fill(buffer, word)); }
    @Override public void poison(VkCommandBuffer cmd, Object object) { calls.add(new Poison(object)); }
    @Override public int timestampCapacity() { return timestampCapacity; }
    @Override public void resetTimestamps(VkCommandBuffer cmd, int first, int count) { calls.add(new ResetTimestamps(first, count)); }
    @Override public void writeTimestamp(VkCommandBuffer cmd, int query) { calls.add(new Timestamp(query)); }

    @Override public void copyTimestamps(VkCommandBuffer cmd, int first, int count) { calls.add(new CopyTimestamps(first, count)); }

    @Override
    public boolean readCopiedTimestamps(int first, int count, long[] ticks) {
        copiedReads++;
        return ticks(first, count, ticks);
    }

    @Override
    public boolean readTimestamps(int first, int count, long[] ticks) {
        driverReads++;
        return ticks(first, count, ticks);
    }

    private static boolean ticks(int first, int count, long[] ticks) {
        for (int i = 0; i < count; i++) {
            ticks[i] = 1000L * (first + i);   // 1 us per query index: pass i of a frame takes 1 us
        }
        return true;
    }

    @Override public double nanos(long startTicks, long endTicks) { return endTicks - startTicks; }

    @Override
    public long createLaneSemaphore() {
        return ++laneSemaphores;
    }

    @Override public void destroyLaneSemaphore(long semaphore) { }

    @Override
    public Transients create(GraphDeclaration g, GraphPlan plan, boolean poison) {
        transientSets++;
        Transients t = new Transients(plan, poison, g.resources.size());
        for (GraphResource r : g.resources) {
            if (r.transientResource() && plan.slotOf()[r.id] >= 0) {
                t.objects[r.id] = new Fake(r.name, plan.slotOf()[r.id], fakes++);
            }
        }
        return t;
    }

    @Override public void release(Transients transients) { transientSetsReleased++; }
    @Override public long transientObjectsCreated() { return fakes; }
    @Override public void close() { }
}

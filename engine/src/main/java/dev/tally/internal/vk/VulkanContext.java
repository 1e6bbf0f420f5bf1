package dev.tally.internal.vk;

import dev.tally.vk.HostFeatures;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.*;

import java.nio.IntBuffer;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;

/**
 * The composition root of Tally's ground floor: it makes and closes, in order, the parts that each do one
 * job, and hands them out. {@link #gpu()}: handles, queues, allocator, formats and command pools;
 * {@link #submissions()}: timeline values, every submission, device loss and counted waits; deferred
 * destruction ({@link #defer}); {@link #memory()}: VMA statistics and budget; {@link #presentation()}:
 * acquire and present; {@link #names()}: debug names and labels; {@link #counters()}: object serials.
 * The {@link FaultInjector} wraps submissions and presentation, so every path can be given a fault.
 * <p>
 * The remaining methods delegate to those parts, for callers written before the split.
 */
public final class VulkanContext implements AutoCloseable {
    public static final String VALIDATION_LAYER = VulkanDevice.VALIDATION_LAYER;

    private final ContextOptions options;
    private final FaultInjector faults;
    private final VulkanDevice gpu;
    private final DebugNames names;
    private final Submissions submissions;
    private final DeferredDestroyer destroyer;
    private final MemoryStatistics memory;
    private final Presentation presentation;
    private final ObjectCounters counters = new ObjectCounters();
    private final QueryResets queryResets = new QueryResets();
    private volatile boolean closed;
    /** {@link #liveAllocations()} as it stood when {@link #close} began releasing: VMA is gone after it. */
    private long[] liveAtClose = {0, 0};

    private VulkanContext(ContextOptions options, FaultInjector faults, VulkanDevice gpu, Lock queueLock) {
        this.options = options;
        this.faults = faults;
        this.gpu = gpu;
        this.names = new DebugNames(gpu.device(), gpu.debugUtils());
        this.submissions = new Submissions(gpu, names, faults, queueLock);
        this.destroyer = new DeferredDestroyer(submissions);
        this.memory = new MemoryStatistics(gpu.physicalDevice(), gpu.allocator());
        this.presentation = new Presentation(gpu.device(), gpu.queue(), submissions.queueLock(), faults);
    }

    /** Creates a context; on any failure everything created so far is released. */
    public static VulkanContext create(ContextOptions options) {
        FaultInjector faults = new FaultInjector(FaultPlan.parse(options.faults()));
        VulkanDevice gpu;
        try {
            gpu = VulkanDevice.create(options, faults);
        } catch (RuntimeException e) {
            faults.close();
            throw e;
        }
        try {
            return new VulkanContext(options, faults, gpu, null);
        } catch (RuntimeException e) {
            gpu.close();
            faults.close();
            throw e;
        }
    }

    /**
     * Runs Tally on a renderer's own Vulkan objects: its instance, device, queue (graphics+compute) and
     * VMA allocator, which Tally never destroys ({@code vmaAllocator} 0: Tally makes its own on the device and
     * destroys it at close). The device must have enabled what {@link Requirements} lists (Tally.wrap checks
     * it against what the host says it enabled). Tally adds its own timeline semaphore and
     * command pool; validation messages go to the renderer's own messenger, not to
     * {@link #validationLog()}. {@code debugUtils}: the instance enabled VK_EXT_debug_utils (pass labels).
     * {@code queueLock}: the lock the renderer holds around its own submissions to {@code queue} (Vulkan
     * requires external synchronization of a queue); Tally takes it around each of its submits and
     * presents. Null when the renderer does not share the queue across threads. {@code enabled}: what the renderer
     * created its device with (optional features are used where it says they are enabled).
     */
    public static VulkanContext wrap(ContextOptions options, VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device,
                                     int queueFamily, VkQueue queue, long vmaAllocator, boolean debugUtils, Lock queueLock, HostFeatures enabled) {
        if (FaultPlan.parse(options.faults()).kind() == FaultPlan.Kind.OOM) {
            throw new IllegalArgumentException("fault " + options.faults()
                    + " needs Tally's own VMA allocator; a wrapped context can inject device-lost faults only");
        }
        FaultInjector faults = new FaultInjector(FaultPlan.parse(options.faults()));
        VulkanDevice gpu;
        try {
            gpu = VulkanDevice.wrap(instance, physicalDevice, device, queueFamily, queue, vmaAllocator, debugUtils, faults, enabled);
        } catch (RuntimeException e) {
            faults.close();
            throw e;
        }
        try {
            return new VulkanContext(options, faults, gpu, queueLock);
        } catch (RuntimeException e) {
            gpu.close();   // only an allocator Tally made on the renderer's device
            faults.close();
            throw e;
        }
    }

    // ---------------------------------------------------------------- the parts

    public VulkanDevice gpu() { return gpu; }
    public Submissions submissions() { return submissions; }
    public MemoryStatistics memory() { return memory; }
    public Presentation presentation() { return presentation; }
    public DebugNames names() { return names; }
    public ObjectCounters counters() { return counters; }
    public ContextOptions options() { return options; }
    /** The injector of {@link ContextOptions#faults()}: tests read its counters. */
    FaultInjector faults() { return faults; }

    /** True once {@link #close} began: nothing may reach the device any more. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Throws, naming {@code user} (e.g. "FrameCommands", "buffer 'x'"), when the context is closed: its
     * device is gone, so any native call would touch freed memory.
     */
    public void requireOpen(String user) {
        if (closed) {
            throw new IllegalStateException(user + " used after Tally.close() (Tally's Vulkan objects are destroyed); close it before closing Tally");
        }
    }

    // ---------------------------------------------------------------- deferred destruction

    /** Destroys what the GPU is done with; cheap, call once per frame. */
    public void retire() {
        requireOpen("VulkanContext.retire");
        destroyer.retire();
    }

    /** Runs {@code destroy} once every submission made so far has completed. After close: nothing (everything died with the device). */
    public void defer(Runnable destroy) {
        if (!closed) {
            destroyer.defer(destroy);
        }
    }

    /**
     * Destroys {@code destroy} at {@link #close}, after the device is idle, and never earlier: for a semaphore that
     * submitted batches wait on, which a driver may still touch after their timeline signal (see DeferredDestroyer).
     */
    public void deferUntilIdle(Runnable destroy) {
        if (!closed) {
            destroyer.deferUntilIdle(destroy);
        }
    }

    /** Destructions still to run: deferred by timeline value, or until the device is idle at close. */
    public int pendingDestructions() { return destroyer.pending(); }

    // ---------------------------------------------------------------- waits (each retires what completed)

    /** Blocks until the timeline reaches {@code value}, counted as a wait of cause OTHER. */
    public void waitFor(long value) {
        waitFor(value, Waits.Cause.OTHER);
    }

    /** Blocks until the timeline reaches {@code value}; a wait that blocks is counted in {@link #waits()} under {@code cause}. */
    public void waitFor(long value, Waits.Cause cause) {
        requireOpen("VulkanContext.waitFor");
        submissions.waitFor(value, cause);
        destroyer.retire();
    }

    /** Waits for everything submitted so far (a frame still open is not waited for: it was not submitted). */
    public void waitIdle() {
        waitFor(submissions.lastSubmitted());
    }

    /** Records with {@code recorder}, submits and waits. For tools and tests, not for frame loops. */
    public void submitAndWait(Consumer<VkCommandBuffer> recorder) {
        requireOpen("VulkanContext.submitAndWait");
        submissions.submitAndWait(recorder);
        destroyer.retire();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            submissions.waitDeviceIdleForClose();
        } finally {
            closed = true;
            destroyer.retireAll();
            submissions.destroy();
            long[] live = memory.liveAllocations();
            liveAtClose = live;
            // On a host's allocator, the host's own allocations live on (its images, say): only Tally's own allocator's count.
            if (live[0] != 0 && gpu.ownsAllocator()) {
                // Said before the device goes, so that it comes ahead of the layer's messages about the same objects.
                gpu.validationLog().record(true, "tally: " + live[0] + " VMA allocation(s) of " + live[1] + " bytes still live at Tally.close ("
                        + liveNames() + "): close what Tally made (nodes, readback rings, kernels, buffers, images, command pools) before closing Tally");
            }
            if (gpu.ownsDevice()) {
                gpu.close();
                faults.close();   // the allocator that calls its interposed function is gone
            } else {
                gpu.close();   // the renderer's device lives on; an allocator Tally made on it does not
            }
        }
    }

    /** The live allocations' names for the close-time report, quoted, the first eight and a count of the rest. */
    private String liveNames() {
        java.util.List<String> names = memory.liveAllocationNames();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(8, names.size()); i++) {
            b.append(i == 0 ? "" : ", ").append('\'').append(names.get(i)).append('\'');
        }
        if (names.size() > 8) {
            b.append(" and ").append(names.size() - 8).append(" more");
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- delegates for callers written before the split

    public VkInstance instance() { return gpu.instance(); }
    public VkPhysicalDevice physicalDevice() { return gpu.physicalDevice(); }
    public VkDevice device() { return gpu.device(); }
    public VkQueue queue() { return gpu.queue(); }
    public VkQueue asyncQueue() { return gpu.asyncQueue(); }
    public int asyncQueueFamily() { return gpu.asyncQueueFamily(); }
    public int queueFamily() { return gpu.queueFamily(); }
    public long allocator() { return gpu.allocator(); }
    /** Whether the VMA allocator is Tally's own (its own device, or a wrapped one given none). */
    public boolean ownsAllocator() { return gpu.ownsAllocator(); }
    /** The features Tally's own device was created with; null for a wrapped device (its host reports them). */
    public HostFeatures enabledFeatures() { return gpu.enabledFeatures(); }
    /** How this context's timestamp queries were reset so far (from the host, or by commands). */
    public QueryResets queryResets() { return queryResets; }
    /** True when the device was created with hostQueryReset: timestamp queries are then reset from the host, not by a command. */
    public boolean hostQueryReset() { return gpu.enabledFeatures() != null && gpu.enabledFeatures().features().contains("hostQueryReset"); }
    public DeviceInfo info() { return gpu.info(); }
    public boolean debugUtils() { return gpu.debugUtils(); }
    public ValidationLog validationLog() { return gpu.validationLog(); }

    /** Records a message of Tally's own about what a host left open, counted as an error, as the leak report at close is. */
    public void reportAtClose(String message) { gpu.validationLog().record(true, message); }
    public boolean optimalTilingSupports(int format, int features) { return gpu.optimalTilingSupports(format, features); }
    /** A command pool on the main queue's family; the caller owns it. */
    public long createCommandPool(MemoryStack stack, int flags) { return gpu.createCommandPool(stack, flags, gpu.queueFamily()); }
    public long createCommandPool(MemoryStack stack, int flags, int family) { return gpu.createCommandPool(stack, flags, family); }
    public VkCommandBuffer allocateCommandBuffer(long pool) { return gpu.allocateCommandBuffer(pool); }
    public static void beginOneTime(VkCommandBuffer cmd) { VulkanDevice.beginOneTime(cmd); }

    public void nameObject(int objectType, long handle, String name) { names.nameObject(objectType, handle, name); }
    public void beginLabel(VkCommandBuffer cmd, String name) { names.beginLabel(cmd, name); }
    public void endLabel(VkCommandBuffer cmd) { names.endLabel(cmd); }

    public long nextSerial() { return counters.nextSerial(); }
    public void countObject() { counters.countObject(); }
    public long objectsCreated() { return counters.objectsCreated(); }

    /** Live VMA allocations and their bytes; once closed, those still live when Tally closed (what was never closed). */
    public long[] liveAllocations() { return closed ? liveAtClose.clone() : memory.liveAllocations(); }
    /** Whether Tally made the Vulkan device (and its instance, layers included), rather than wrapping a host's. */
    public boolean ownsDevice() { return gpu.ownsDevice(); }
    public MemoryBudget deviceMemoryBudget() { return memory.deviceMemoryBudget(); }

    public int acquireNextImage(long swapchain, long timeoutNs, long semaphore, IntBuffer index) {
        return presentation.acquireNextImage(swapchain, timeoutNs, semaphore, index);
    }
    public int present(VkPresentInfoKHR info) { return presentation.present(info); }

    public long submit(VkCommandBuffer cmd) { return submissions.submit(cmd); }
    public long submit(VkCommandBuffer cmd, long waitBinary, long waitStage, long signalBinary) {
        return submissions.submit(cmd, waitBinary, waitStage, signalBinary);
    }
    public long completedValue() {
        requireOpen("VulkanContext.completedValue");
        return submissions.completedValue();
    }
    /** True once the timeline has reached {@code value}; polls only when no earlier poll or wait saw it that far. Never waits. */
    public boolean reached(long value) {
        requireOpen("VulkanContext.reached");
        return submissions.reached(value);
    }
    public long timeline() { return submissions.timeline(); }
    public long lastSubmitted() { return submissions.lastSubmitted(); }
    public boolean isDeviceLost() { return submissions.isDeviceLost(); }
    public String lostAt() { return submissions.lostAt(); }
    public Waits waits() { return submissions.waits(); }
    public Lock queueLock() { return submissions.queueLock(); }
}

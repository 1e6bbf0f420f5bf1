package dev.tally.demo.bench.replay;

import dev.tally.internal.vk.QueueSubmit2;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.*;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.LongBuffer;
import java.util.Arrays;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * A captured frame's command stream issued frame after frame the way a hand-written renderer would: one
 * transient pool and primary command buffer per frame in flight (reset, begun for one submission, the ops
 * recorded, ended), one vkQueueSubmit2 signalling its own timeline semaphore, and a wait on that semaphore
 * before a slot is reused; each slot has its own query pools in place of the stream's (its timestamps are reset,
 * written and copied as the captured frame's were). Every struct is built here once; a frame allocates nothing and
 * runs no Tally code.
 * The stream's pipelines, descriptor sets, buffers and images are the ones Tally made, so the replay must
 * be closed before them.
 */
public final class CommandReplay implements AutoCloseable {
    /** How long a slot may wait for its previous frame before the replay gives up (a hung GPU, not pacing). */
    private static final long WAIT_NANOS = 30_000_000_000L;

    /**
     * Per-frame medians of a measured run: the thread's CPU time, and the wall time less the slot waits (measured as the
     * demo's frames are: a driver that spins in vkWaitSemaphores bills the wait to the thread's CPU time, so where the GPU
     * sets the pace the first holds waiting as well as work). {@code bytesPerFrame} is -1 where the JVM cannot count
     * allocations.
     */
    public record Figures(long frames, double threadCpuMicrosMedian, double wallMinusWaitsMicrosMedian, double bytesPerFrame) {
    }

    /**
     * Per-frame medians of a run timed phase by phase, the phases the demo's frame has beside them ({@code FramePhases}):
     * the command buffer begun (its pool reset), the stream recorded and the buffer ended, the submission; the slot wait
     * is in none of them.
     */
    public record Phases(double commandsMicros, double recordMicros, double submitMicros) {
    }

    private final VkDevice device;
    private final VkQueue queue;
    private final CommandStream stream;
    private final long[] pools;
    private final VkCommandBuffer[] buffers;
    /** The stream's query pools, and each slot's own pools in their place (a host reset may touch only queries the GPU is done with). */
    private final long[] capturedQueryPools;
    private final long[][] slotQueryPools;
    private final long[] queryEnds;
    private long semaphore;
    private final VkCommandBufferBeginInfo begin = VkCommandBufferBeginInfo.calloc();
    private final VkSubmitInfo2.Buffer submits;
    private final VkCommandBufferSubmitInfo.Buffer commandInfos;
    private final VkSemaphoreSubmitInfo.Buffer signals;
    private final VkSemaphoreWaitInfo waitInfo = VkSemaphoreWaitInfo.calloc();
    private final LongBuffer waitValue = MemoryUtil.memAllocLong(1);
    private final LongBuffer waitSemaphore = MemoryUtil.memAllocLong(1);
    private final boolean spinWaits;
    /** The semaphore's counter as a spinning wait polls it. */
    private final LongBuffer counter = MemoryUtil.memAllocLong(1);
    private long frame;
    /** Nanoseconds spent in the slot waits so far. */
    private long waitNanos;

    public CommandReplay(VkDevice device, VkQueue queue, int queueFamily, CommandStream stream, int framesInFlight) {
        this(device, queue, queueFamily, stream, framesInFlight, false);
    }

    /**
     * As above; with {@code spinWaits}, a slot's wait polls the semaphore's counter until its frame is done before the
     * wait (which then returns at once), so that the thread never sleeps: the demo's frames measured with
     * {@code bench --frame-cpu-spin} wait that way. The polling is counted as waiting.
     */
    public CommandReplay(VkDevice device, VkQueue queue, int queueFamily, CommandStream stream, int framesInFlight, boolean spinWaits) {
        this.spinWaits = spinWaits;
        this.device = device;
        this.queue = queue;
        this.stream = stream;
        pools = new long[framesInFlight];
        buffers = new VkCommandBuffer[framesInFlight];
        long[][] queryPools = stream.queryPools();
        capturedQueryPools = queryPools[0];
        slotQueryPools = new long[framesInFlight][capturedQueryPools.length];
        queryEnds = queryPools[1];
        submits = VkSubmitInfo2.calloc(framesInFlight);
        commandInfos = VkCommandBufferSubmitInfo.calloc(framesInFlight);
        signals = VkSemaphoreSubmitInfo.calloc(framesInFlight);
        try (MemoryStack stack = stackPush()) {
            create(stack, queueFamily);
        } catch (RuntimeException e) {
            destroy();   // nothing half-made left behind
            throw e;
        }
        begin.sType$Default().flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        waitSemaphore.put(0, semaphore);
        waitInfo.sType$Default().semaphoreCount(1).pSemaphores(waitSemaphore).pValues(waitValue);
    }

    private void create(MemoryStack stack, int queueFamily) {
        LongBuffer p = stack.mallocLong(1);
        VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default().semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE);
        check(vkCreateSemaphore(device, VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type.address()), null, p),
                "vkCreateSemaphore(replay timeline)");
        semaphore = p.get(0);
        PointerBuffer cmd = stack.mallocPointer(1);
        for (int i = 0; i < pools.length; i++) {
            check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default().flags(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT)
                    .queueFamilyIndex(queueFamily), null, p), "vkCreateCommandPool(replay)");
            pools[i] = p.get(0);
            check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default().commandPool(pools[i])
                    .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), cmd), "vkAllocateCommandBuffers(replay)");
            buffers[i] = new VkCommandBuffer(cmd.get(0), device);
            for (int q = 0; q < capturedQueryPools.length; q++) {
                check(vkCreateQueryPool(device, VkQueryPoolCreateInfo.calloc(stack).sType$Default().queryType(VK_QUERY_TYPE_TIMESTAMP)
                        .queryCount((int) queryEnds[q]), null, p), "vkCreateQueryPool(replay)");
                slotQueryPools[i][q] = p.get(0);
            }
            commandInfos.get(i).sType$Default().commandBuffer(buffers[i]);
            signals.get(i).sType$Default().semaphore(semaphore).stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
            submits.get(i).sType$Default().pCommandBufferInfos(VkCommandBufferSubmitInfo.create(commandInfos.address(i), 1))
                    .pSignalSemaphoreInfos(VkSemaphoreSubmitInfo.create(signals.address(i), 1));
        }
    }

    /** Replays one frame: waits for the slot's previous frame, records the stream into its command buffer and submits it. */
    public void frame() {
        frame(null, 0);
    }

    /** As {@link #frame()}; with {@code phases}, each phase's nanoseconds go to {@code phases[phase][index]}. */
    private void frame(long[][] phases, int index) {
        int slot = (int) (frame % pools.length);
        if (frame >= pools.length) {
            long value = frame + 1 - pools.length;
            waitValue.put(0, value);
            long start = System.nanoTime();
            if (spinWaits) {
                do {
                    check(vkGetSemaphoreCounterValue(device, semaphore, counter), "vkGetSemaphoreCounterValue(replay slot)");
                } while (counter.get(0) < value && System.nanoTime() - start < WAIT_NANOS);
            }
            check(vkWaitSemaphores(device, waitInfo, WAIT_NANOS), "vkWaitSemaphores(replay slot)");
            waitNanos += System.nanoTime() - start;
        }
        long commandsStart = phases == null ? 0 : System.nanoTime();
        check(vkResetCommandPool(device, pools[slot], 0), "vkResetCommandPool(replay)");
        VkCommandBuffer cmd = buffers[slot];
        check(vkBeginCommandBuffer(cmd, begin), "vkBeginCommandBuffer(replay)");
        long recordStart = phases == null ? 0 : System.nanoTime();
        stream.record(cmd, capturedQueryPools, slotQueryPools[slot]);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer(replay)");
        long submitStart = phases == null ? 0 : System.nanoTime();
        frame++;
        VkSemaphoreSubmitInfo.nvalue(signals.address(slot), frame);   // by address: get(slot) would be a wrapper object per frame
        check(QueueSubmit2.call(queue, 1, submits.address(slot), VK_NULL_HANDLE), "vkQueueSubmit2(replay)");   // as Tally submits: no struct walk
        if (phases != null) {
            phases[0][index] = recordStart - commandsStart;
            phases[1][index] = submitStart - recordStart;
            phases[2][index] = System.nanoTime() - submitStart;
        }
    }

    /** {@code frames} replayed frames timed phase by phase (see {@link Phases}): the medians over the frames after the first. */
    public Phases measurePhases(int frames) {
        if (frames < 2) {
            throw new IllegalArgumentException("replay phases need at least 2 frames (the first is set-up), got " + frames);
        }
        long[][] phases = new long[3][frames];
        for (int f = 0; f < frames; f++) {
            frame(phases, f);
        }
        return new Phases(medianMicrosAfterFirst(phases[0]), medianMicrosAfterFirst(phases[1]), medianMicrosAfterFirst(phases[2]));
    }

    private static double medianMicrosAfterFirst(long[] nanos) {
        double[] micros = new double[nanos.length - 1];
        for (int i = 1; i < nanos.length; i++) {
            micros[i - 1] = nanos[i] / 1e3;
        }
        return median(micros);
    }

    /** {@code frames} replayed frames, measured as the demo's frames are: the thread's CPU time from one frame's end to the next. */
    public Figures measure(int frames) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean allocations = threads instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled() ? t : null;
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long thread = Thread.currentThread().getId();
        double[] cpu = new double[frames];
        double[] wall = new double[frames];
        long firstBytes = allocations == null ? 0 : allocations.getThreadAllocatedBytes(thread);
        long last = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
        long lastWall = System.nanoTime(), lastWait = waitNanos;
        for (int f = 0; f < frames; f++) {
            frame();
            long now = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
            long nowWall = System.nanoTime();
            cpu[f] = (now - last) / 1e3;
            wall[f] = (nowWall - lastWall - (waitNanos - lastWait)) / 1e3;
            last = now;
            lastWall = nowWall;
            lastWait = waitNanos;
        }
        long bytes = allocations == null ? -1 : allocations.getThreadAllocatedBytes(thread) - firstBytes;
        return new Figures(frames, cpuTime ? median(cpu) : -1, median(wall), bytes < 0 ? -1 : (double) bytes / Math.max(1, frames));
    }

    private static double median(double[] values) {
        int n = values.length;
        if (n == 0) {
            return -1;
        }
        Arrays.sort(values);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    /** Waits for the replayed frames, then destroys the pools and the semaphore. */
    @Override
    public void close() {
        try {
            if (frame > 0) {
                waitValue.put(0, frame);
                check(vkWaitSemaphores(device, waitInfo, WAIT_NANOS), "vkWaitSemaphores(replay close)");
            }
        } finally {
            destroy();
        }
    }

    private void destroy() {
        for (long pool : pools) {
            if (pool != VK_NULL_HANDLE) {
                vkDestroyCommandPool(device, pool, null);
            }
        }
        for (long[] slot : slotQueryPools) {
            for (long pool : slot) {
                if (pool != VK_NULL_HANDLE) {
                    vkDestroyQueryPool(device, pool, null);
                }
            }
        }
        if (semaphore != VK_NULL_HANDLE) {
            vkDestroySemaphore(device, semaphore, null);
        }
        begin.free();
        submits.free();
        commandInfos.free();
        signals.free();
        waitInfo.free();
        MemoryUtil.memFree(waitValue);
        MemoryUtil.memFree(waitSemaphore);
        MemoryUtil.memFree(counter);
    }
}

package dev.tally.internal.engine;

import dev.tally.Frame;
import dev.tally.FrameBatch;
import dev.tally.LaneCommands;

import dev.tally.internal.graph.FrameTicket;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.graph.QueueLanes;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.util.ArrayList;
import java.util.List;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.vulkan.VK10.vkEndCommandBuffer;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK13.VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;

/**
 * One frame, from {@link Tally#beginFrame()} to its submission: its number, the timeline value its
 * submission signals, and its graph. Declare passes on {@link #graph()}, {@link #record} them into your
 * command buffer, then either add {@link #signal Tally's signal} to your own {@code VkSubmitInfo2}
 * ({@code vkQueueSubmit2}) or {@code VkSubmitInfo} ({@code vkQueueSubmit}) and submit it yourself, or let
 * Tally {@link #submit} it.
 * <p>
 * Forgetting the signal is reported at the next {@link Tally#beginFrame()}, naming this frame, before
 * anything could be freed while the GPU might still use it.
 * <p>
 * A frame belongs to the thread that began it: recording, submitting, signalling or abandoning it from
 * another thread throws IllegalStateException.
 */
public final class EngineFrame implements Frame {
    private enum State { OPEN, RECORDED, SUBMITTED, ABANDONED }

    /** The implementation behind {@code frame}; anything else is refused in one line. */
    public static EngineFrame of(Frame frame) {
        if (frame instanceof EngineFrame f) {
            return f;
        }
        throw new IllegalArgumentException("expected a Frame from Tally.beginFrame(), got " + (frame == null ? "null" : frame.getClass().getName()));
    }

    private final Engine tally;
    /** Made when asked for: the frame's own slot and value are read without it (a ticket per frame is garbage). */
    private FrameTicket ticket;
    // Set by begin: the object is reused (Engine keeps frames.inFlight + 2 of them), so a frame allocates nothing.
    private long number;
    private long timelineValue;
    private int slot;
    private Thread owner;
    private GraphDeclaration graph;
    /** Volatile, written last by begin: a beginFrame on another thread reads it to tell an open frame from a finished one. */
    private volatile State state = State.SUBMITTED;

    EngineFrame(Engine tally) {
        this.tally = tally;
    }

    /** Hands this object out as frame {@code number}: it was submitted or abandoned at least frames.inFlight + 1 frames ago. */
    EngineFrame begin(long number, long timelineValue, int framesInFlight, Thread owner, GraphDeclaration graph) {
        if (state == State.OPEN || state == State.RECORDED) {
            throw new IllegalStateException("internal: frame object of frame " + this.number + " reused for frame " + number + " while " + state);
        }
        this.number = number;
        this.timelineValue = timelineValue;
        this.slot = (int) (number % framesInFlight);
        this.owner = owner;
        this.graph = graph;
        this.ticket = null;
        this.state = State.OPEN;
        return this;
    }

    /** This frame's number: 0, 1, 2, ... (the one frame counter; rings, histories and timings follow it). */
    public long number() {
        return number;
    }

    /** This frame's number, slot among the frames in flight and timeline value: per-frame rings take their slot from it. */
    public FrameTicket ticket() {
        if (ticket == null) {
            ticket = new FrameTicket(number, slot, timelineValue);
        }
        return ticket;
    }

    /** This frame's slot among the frames in flight (the ticket's). */
    int slot() {
        return slot;
    }

    /** The value this frame's submission signals on {@link #timelineSemaphore()}. */
    public long timelineValue() {
        return timelineValue;
    }

    /** Tally's timeline semaphore: it reaches {@link #timelineValue()} when the GPU has finished this frame. */
    public long timelineSemaphore() {
        return tally.context().timeline();
    }

    /** This frame's graph: declare passes on it before {@link #record}. */
    public GraphDeclaration graph() {
        return graph;
    }

    /** Compiles (cached by topology), plans barriers and records every pass into {@code cmd}, which the caller has begun. */
    public void record(VkCommandBuffer cmd) {
        require(State.OPEN, "record");
        tally.graphs().record(graph, cmd);
        state = State.RECORDED;
    }

    /**
     * Records the frame in batches, one per run of passes on a queue lane (async compute passes on the
     * async queue when {@code async.mode} places them there), each command buffer ended. With one lane the
     * list holds one batch. Submit with {@link #submit(List)}, or yourself in list order: {@link FrameBatch#fill}
     * each, and {@link #signal(VkSubmitInfo2, MemoryStack)} on the last.
     */
    public List<FrameBatch> recordBatches(LaneCommands commands) {
        require(State.OPEN, "record");
        GraphRuntime graphs = tally.graphs();
        List<GraphRuntime.RecordedBatch> recorded = graphs.recordBatches(graph, EngineLaneCommands.of(commands, number).forFrame(this));
        boolean second = tally.context().asyncQueue() != null;
        List<FrameBatch> out = tally.batchList();
        out.clear();
        for (int i = 0; i < recorded.size(); i++) {   // indexed: no iterator per frame
            GraphRuntime.RecordedBatch b = recorded.get(i);
            check(vkEndCommandBuffer(b.cmd()), "vkEndCommandBuffer");
            out.add(tally.laneBatch(i).set(b, second && b.batch().lane() == QueueLanes.ASYNC, graphs.laneSemaphore()));
        }
        state = State.RECORDED;
        return tally.batchView();
    }

    /** Tally submits the batches of {@link #recordBatches} in order; the last signals this frame's timeline value. */
    public void submit(List<FrameBatch> batches) {
        submit(batches, NULL, 0, NULL);
    }

    /**
     * As {@link #submit(List)}, with optional binary semaphores for a swapchain: the first batch waits for
     * {@code waitBinary} at {@code waitStage} (the acquire), the last also signals {@code signalBinary} (for present).
     */
    public void submit(List<FrameBatch> batches, long waitBinary, long waitStage, long signalBinary) {
        require(State.RECORDED, "submit");
        VulkanContext ctx = tally.context();
        for (int i = 0; i < batches.size(); i++) {
            FrameBatch b = batches.get(i);
            try (MemoryStack stack = stackPush()) {
                // By address (static setters): this runs for every batch of every frame, and struct wrappers would be garbage.
                long info = stack.ncalloc(VkSubmitInfo2.ALIGNOF, 1, VkSubmitInfo2.SIZEOF);
                LaneBatch.of(b, number).fillAt(info, stack);
                if (i == 0 && waitBinary != NULL) {
                    long w = SemaphoreInfos.appended(info, VkSubmitInfo2.WAITSEMAPHOREINFOCOUNT, VkSubmitInfo2.PWAITSEMAPHOREINFOS, stack);
                    SemaphoreInfos.write(w, waitBinary, 0, waitStage);
                }
                if (b.last()) {
                    long t = SemaphoreInfos.appended(info, VkSubmitInfo2.SIGNALSEMAPHOREINFOCOUNT, VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, stack);
                    SemaphoreInfos.write(t, timelineSemaphore(), timelineValue, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
                    if (signalBinary != NULL) {
                        long bin = SemaphoreInfos.appended(info, VkSubmitInfo2.SIGNALSEMAPHOREINFOCOUNT, VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, stack);
                        SemaphoreInfos.write(bin, signalBinary, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
                    }
                }
                ctx.submissions().submitFrameBatch(b.asyncQueue(), info, timelineValue, number, i, b.lane());
            }
        }
        ctx.submissions().frameSubmitted(timelineValue);
        state = State.SUBMITTED;
        tally.graphs().submitted(graph);
    }

    /**
     * The submission hook: appends Tally's timeline signal (semaphore, value, all commands) to the
     * signal list of {@code submit}, which the caller then passes to {@code vkQueueSubmit2}. The new list
     * is allocated on {@code stack}, which must outlive the submit call.
     */
    public void signal(VkSubmitInfo2 submit, MemoryStack stack) {
        require(State.RECORDED, "signal");
        // Written by address (static setters): the hook runs every frame, and struct wrappers would be garbage each time.
        long mine = SemaphoreInfos.appended(submit.address(), VkSubmitInfo2.SIGNALSEMAPHOREINFOCOUNT, VkSubmitInfo2.PSIGNALSEMAPHOREINFOS, stack);
        SemaphoreInfos.write(mine, timelineSemaphore(), timelineValue, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        submitted();
    }

    /**
     * The submission hook for {@code vkQueueSubmit}: appends Tally's timeline semaphore to the signal list
     * of {@code submit} and its value to the {@code VkTimelineSemaphoreSubmitInfo} in the pNext chain
     * (extended when the caller chained one, for its own timeline waits or signals; chained otherwise).
     * Everything new is allocated on {@code stack}, which must outlive the submit call.
     */
    public void signal(VkSubmitInfo submit, MemoryStack stack) {
        require(State.RECORDED, "signal");
        SubmitInfoSignal.append(submit, timelineSemaphore(), timelineValue, stack);
        submitted();
    }

    /**
     * The submission hook for callers that build their own signal list: fills {@code target} with
     * Tally's timeline signal. Call it for the submit that carries this frame's command buffer.
     */
    public void signal(VkSemaphoreSubmitInfo target) {
        require(State.RECORDED, "signal");
        fill(target);
        submitted();
    }

    private void fill(VkSemaphoreSubmitInfo info) {
        info.sType$Default().pNext(NULL).semaphore(timelineSemaphore()).value(timelineValue)
                .stageMask(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT).deviceIndex(0);
    }

    private void submitted() {
        tally.context().submissions().frameSubmitted(timelineValue);
        state = State.SUBMITTED;
    }

    /** Ends nothing: Tally submits {@code cmd} (ended by the caller), signalling this frame's value. */
    public void submit(VkCommandBuffer cmd) {
        submit(cmd, NULL, 0, NULL);
    }

    /**
     * Tally submits {@code cmd} (ended by the caller) with optional binary semaphores: one waited at
     * {@code waitStage} (a swapchain acquire) and one signalled (for present).
     */
    public void submit(VkCommandBuffer cmd, long waitBinary, long waitStage, long signalBinary) {
        require(State.RECORDED, "submit");
        VulkanContext ctx = tally.context();
        ctx.submissions().submitFrame(cmd, timelineValue, waitBinary, waitStage, signalBinary);
        state = State.SUBMITTED;
        tally.graphs().submitted(graph);
    }

    /**
     * Gives up a frame that was not recorded (e.g. the swapchain went out of date): nothing of it reaches
     * the GPU and its readback captures are dropped. Its number is not reused, and its timeline value is
     * signalled by an empty submission, so that frame numbers and timeline values only grow.
     */
    public void abandon() {
        requireOwner("abandon");
        if (state == State.RECORDED) {
            throw new IllegalStateException("frame " + number + " was recorded: submit it (recorded frames change what the graph"
                    + " tracks of each resource, so they cannot be taken back)");
        }
        abandonAtClose();
    }

    /** Abandons an open frame from whichever thread closes Tally (the owner is gone or done). */
    void abandonAtClose() {
        if (state == State.OPEN) {
            state = State.ABANDONED;
            tally.abandoned(this);
        }
    }

    boolean isOpen() {
        return state == State.OPEN;
    }

    void requireFinished() {
        State s = state;
        if ((s == State.OPEN || s == State.RECORDED) && Thread.currentThread() != owner) {
            throw new IllegalStateException("beginFrame on thread '" + Thread.currentThread().getName() + "' while frame " + number
                    + ", begun on thread '" + owner.getName() + "', is still " + s.name().toLowerCase() + "; " + THREAD_RULE);
        }
        if (s == State.OPEN) {
            throw new IllegalStateException("frame " + number + " was begun but neither recorded and submitted nor abandoned;"
                    + " finish it before beginning frame " + (number + 1));
        }
        if (s == State.RECORDED) {
            throw new IllegalStateException("frame " + number + " was recorded but never handed to a submission: call frame.signal(submit, stack)"
                    + " on the VkSubmitInfo2 (vkQueueSubmit2) or the VkSubmitInfo (vkQueueSubmit) that submits it, or frame.submit(cmd);"
                    + " if its commands were already submitted without it, frame.signal a submit of no command buffers after them");
        }
    }

    private static final String THREAD_RULE = "frames are begun, recorded and submitted from one thread at a time: the thread that began the frame";

    /**
     * Throws unless the calling thread began this frame. {@code what} names the operation (also for
     * {@link FrameCommands} and {@link LaneCommands}, which hand out the frame's command buffers).
     */
    void requireOwner(String what) {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("frame " + number + ": " + what + " on thread '" + Thread.currentThread().getName()
                    + "', but the frame was begun on thread '" + owner.getName() + "'; " + THREAD_RULE);
        }
    }

    private void require(State expected, String what) {
        requireOwner(what);
        if (state != expected) {
            throw new IllegalStateException("frame " + number + ": " + what + " when the frame is " + state.name().toLowerCase()
                    + " (expected " + expected.name().toLowerCase() + ")" + (state == State.OPEN && expected == State.RECORDED
                    ? "; record it first, or abandon it if record threw" : ""));
        }
    }
}

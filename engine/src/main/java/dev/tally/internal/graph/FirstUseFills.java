package dev.tally.internal.graph;
import dev.tally.internal.vk.ResourceState;

import dev.tally.graph.Access;

import dev.tally.internal.vk.TrackedBuffer;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Buffers to fill with a word at the start of the next recorded frame, before any pass: the first-use
 * initialization of scratch and history, recorded instead of waited for.
 */
final class FirstUseFills {
    private record Fill(TrackedBuffer buffer, int word) {
    }

    private final List<Fill> pending = new ArrayList<>();
    /** How many of {@link #pending} the frame being recorded holds: they leave the list only once its recording has completed. */
    private int inFrame;

    /** {@code buffer} (TRANSFER_DST usage, not used by the GPU yet) is filled with {@code word}; its state is the fill's from now on. */
    void add(TrackedBuffer buffer, int word) {
        pending.add(new Fill(buffer, word));
        buffer.state(ResourceState.after(Access.TRANSFER_DST));
    }

    /**
     * Records the pending fills into {@code cmd}, the first command buffer of the frame. They stay pending until
     * {@link #frameRecorded()}: a frame whose recording throws is abandoned with its command buffer, and the next frame
     * records them again.
     */
    void record(GraphBackend backend, VkCommandBuffer cmd) {
        inFrame = pending.size();
        for (int i = 0; i < inFrame; i++) {
            Fill f = pending.get(i);
            // A buffer closed before any frame was recorded (its first frame abandoned) is gone: nothing to fill.
            if (!f.buffer().isClosed()) {
                backend.fillBuffer(cmd, f.buffer(), f.word());
            }
        }
    }

    /** The frame that recorded the fills has been recorded whole: they are done (fills added meanwhile stay for the next). */
    void frameRecorded() {
        if (inFrame > 0) {
            pending.subList(0, inFrame).clear();
            inFrame = 0;
        }
    }

    void clear() {
        pending.clear();
        inFrame = 0;
    }
}

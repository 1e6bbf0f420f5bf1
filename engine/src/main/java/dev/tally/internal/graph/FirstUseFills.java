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

    /** {@code buffer} (TRANSFER_DST usage, not used by the GPU yet) is filled with {@code word}; its state is the fill's from now on. */
    void add(TrackedBuffer buffer, int word) {
        pending.add(new Fill(buffer, word));
        buffer.state(ResourceState.after(Access.TRANSFER_DST));
    }

    /** Records the pending fills into {@code cmd}, the first command buffer of the frame. */
    void record(GraphBackend backend, VkCommandBuffer cmd) {
        for (int i = 0; i < pending.size(); i++) {
            Fill f = pending.get(i);
            // A buffer closed before any frame was recorded (its first frame abandoned) is gone: nothing to fill.
            if (!f.buffer().isClosed()) {
                backend.fillBuffer(cmd, f.buffer(), f.word());
            }
        }
        pending.clear();
    }

    void clear() {
        pending.clear();
    }
}

package dev.tally.reduce;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The reduction as a frame-graph node: given a buffer handle and a count, it adds its dispatches and
 * returns the handle of a one-float result that stays on the GPU. Up to {@code reduce.singleDispatchMax} floats (auto:
 * 2^22, or every size one binding holds on a device that reports its SM count; {@code tally info} prints it): one
 * pass {@code NAME}, whose last workgroup folds the partials. Beyond it: passes {@code NAME.partials} and
 * {@code NAME.fold}, with the barrier between them computed by the graph. Each node owns its scratch (partials and the one-pass ticket), so one node serves
 * one reduction per frame.
 */
public interface ReduceNode extends AutoCloseable {
    /**
     * Adds the reduction of {@code count} floats of {@code input}; returns the result's handle. The count
     * is checked against the buffer's declared size here, where the mistake is made: reading past the
     * binding would give a wrong total with nothing but a validation message to say so.
     *
     * @param g     this frame's graph
     * @param input the floats to reduce
     * @param count how many, from the start; at most the node's {@code maxCount} and the buffer's size
     * @return the handle of the result, for passes that read it on the GPU (or a readback ring): a 16-byte buffer whose
     *         float at offset 0 is the value (bind it at offset 0; the 12 bytes after it are padding: capture it whole with
     *         {@code ring.capture(g, result)}, or as {@code buffer(result, 4)} of a ring's source list)
     */
    BufferHandle add(FrameGraph g, BufferHandle input, long count);

    /** Releases the scratch buffers, deferred until the GPU is done with them. */
    void close();
}

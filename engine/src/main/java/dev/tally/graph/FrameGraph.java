package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One frame's declaration: resources and passes, each pass with a setup step (run now, declares reads
 * and writes) and an execute step (run when the frame is recorded, records commands). Recording culls
 * passes whose results nothing uses, orders the rest, inserts the synchronization2 barriers and layout
 * transitions between them, and places transient resources in shared memory. Declaring touches no GPU.
 * Get it from {@code Frame.graph()}; its handles are valid for this frame only.
 */
public interface FrameGraph {
    /** {@return the number of the frame this graph declares} */
    long frame();

    /** {@return the timeline value this frame's submission signals} */
    long timelineValue();

    /**
     * {@return the image's extent, format and usage: passes need not be told it again}
     *
     * @param h an image handle of this frame
     */
    ImageDesc desc(ImageHandle h);

    /**
     * {@return the buffer's size and usage}
     *
     * @param h a buffer handle of this frame
     */
    BufferDesc desc(BufferHandle h);

    /**
     * {@return the resource's name, for messages and labels}
     *
     * @param h a handle of this frame
     */
    String name(Handle h);

    /**
     * A transient buffer owned by the graph for this frame.
     *
     * @param name unique in the frame
     * @param desc its size and usage
     * @return its first version
     */
    BufferHandle createBuffer(String name, BufferDesc desc);

    /**
     * A transient image owned by the graph for this frame.
     *
     * @param name unique in the frame
     * @param desc its extent, colour format and usage
     * @return its first version
     */
    ImageHandle createImage(String name, ImageDesc desc);

    /**
     * A caller-owned buffer: the graph starts from the state the buffer keeps, and leaves its final state there.
     *
     * @param name        unique in the frame
     * @param buffer      made or wrapped by Tally
     * @param finalAccess the access the caller's work after the frame makes (a barrier to it ends the frame), or null
     * @return its first version
     */
    BufferHandle importBuffer(String name, GpuBuffer buffer, Access finalAccess);

    /**
     * A caller-owned buffer the caller wrote outside the graph (a {@code vkCmdFillBuffer} or copy in its own command
     * buffer, say), in the same or an earlier submission on this queue: the graph inserts the barrier from there.
     *
     * @param name        unique in the frame
     * @param buffer      made or wrapped by Tally
     * @param entry       its last access before this frame's passes (for a fill or copy into it, {@link Access#TRANSFER_DST})
     * @param finalAccess the access the caller's work after the frame makes (a barrier to it ends the frame), or null
     * @return its first version
     * @throws GraphException a null entry
     */
    BufferHandle importBuffer(String name, GpuBuffer buffer, Access entry, Access finalAccess);

    /**
     * A caller-owned buffer used only inside this graph's passes (scratch kept across frames): writes to
     * it do not keep a pass alive.
     *
     * @param name   unique in the frame
     * @param buffer made or wrapped by Tally
     * @return its first version
     */
    BufferHandle importScratch(String name, GpuBuffer buffer);

    /**
     * A swapchain image: acquired with a semaphore waited at the colour-attachment stage, contents
     * discarded, presented after the frame.
     *
     * @param name  unique in the frame
     * @param image the wrapped swapchain image
     * @return its first version
     */
    ImageHandle importSwapchainImage(String name, GpuImage image);

    /**
     * A caller-owned image that only Tally's graphs write: the graph starts from where the previous frame left it.
     *
     * @param name        unique in the frame
     * @param image       made or wrapped by Tally
     * @param finalAccess the access the caller's work after the frame makes, or null
     * @return its first version
     */
    ImageHandle importImage(String name, GpuImage image, Access finalAccess);

    /**
     * A caller-owned image the caller wrote outside the graph (its own render pass, say), in the same or an
     * earlier submission on this queue: the graph inserts the barrier and layout transition from there.
     *
     * @param name        unique in the frame
     * @param image       made or wrapped by Tally
     * @param entry       its last access before this frame's passes (for a colour attachment, {@link Access#COLOR_ATTACHMENT})
     * @param finalAccess the access the caller's work after the frame makes, or null
     * @return its first version
     * @throws GraphException a null entry
     */
    ImageHandle importImage(String name, GpuImage image, Access entry, Access finalAccess);

    /**
     * Declares a pass.
     *
     * @param name    unique in the frame; names the pass in errors, timings and debug labels
     * @param kind    compute, graphics (dynamic rendering over its colour attachments) or transfer
     * @param setup   runs now: declares the pass's reads, writes and transients, and returns what execute needs
     * @param execute runs when the frame is recorded, if the pass survives culling: records its commands
     * @param <T>     what setup hands to execute (often a record of handles)
     * @return what setup returned
     * @throws GraphException for a declaration error, naming the pass
     */
    <T> T addPass(String name, PassKind kind, Function<PassBuilder, T> setup, BiConsumer<T, PassContext> execute);
}

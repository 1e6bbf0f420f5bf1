package dev.tally.graph;

/**
 * What a pass's setup step sees: it declares every resource the pass reads and writes, before anything
 * is recorded. Writes return the new version of the handle; later passes must use that one.
 */
public interface PassBuilder {
    /**
     * Declares a read.
     *
     * @param handle the version read
     * @param access how it is read (stages, access, layout); a writing access is refused
     * @param <H>    the handle's type
     * @return the same handle
     * @throws GraphException for a null, stale or foreign handle, or a writing access
     */
    <H extends Handle> H read(H handle, Access access);

    /**
     * Declares a write (or read-modify-write).
     *
     * @param handle the version written over
     * @param access how it is written; a read-only access is refused
     * @param <H>    the handle's type
     * @return the new version, which later passes must use
     * @throws GraphException for a null, stale or foreign handle, or a read-only access
     */
    <H extends Handle> H write(H handle, Access access);

    /**
     * A color attachment of a graphics pass.
     *
     * @param image the image written
     * @param clear the clear colour (RGBA, copied), or null to load what is there
     * @return the new version of the image
     * @throws GraphException outside a graphics pass, or for a clear colour that is not four components
     */
    ImageHandle colorAttachment(ImageHandle image, float[] clear);

    /** Never cull this pass (readbacks, presentation, writes the caller observes outside the graph). */
    void sideEffect();

    /**
     * This compute pass may run on the async compute queue, overlapping the main queue's work. A hint:
     * the runtime places it there when async compute is on (or measured faster) and a second queue
     * exists; otherwise it runs on the main queue with the same results.
     *
     * @throws GraphException outside a compute pass
     */
    void asyncCompute();

    /**
     * A transient buffer owned by the graph for this frame (aliased with others whose lifetimes do not overlap).
     *
     * @param name for errors, labels and timings; unique in the frame
     * @param desc its size and usage
     * @return its first version
     */
    BufferHandle create(String name, BufferDesc desc);

    /**
     * A transient image owned by the graph for this frame.
     *
     * @param name for errors, labels and timings; unique in the frame
     * @param desc its extent, format and usage
     * @return its first version
     */
    ImageHandle create(String name, ImageDesc desc);
}

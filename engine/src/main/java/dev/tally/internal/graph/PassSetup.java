package dev.tally.internal.graph;

import dev.tally.graph.PassBuilder;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import java.util.ArrayList;
import java.util.List;

/**
 * What a pass's setup step sees: it declares every resource the pass reads and writes. Writes return
 * the new version of the handle; later passes must use that one.
 */
final class PassSetup implements PassBuilder {
    private final GraphDeclaration graph;
    final Pass pass;

    PassSetup(GraphDeclaration graph, Pass pass) {
        this.graph = graph;
        this.pass = pass;
    }

    /** Declares a read; returns the same handle. */
    public <H extends Handle> H read(H handle, Access access) {
        if (handle == null) {
            throw new GraphException("pass '" + pass.name + "': read of a null handle (a history's previous version is null on the first frame)");
        }
        if (access.write()) {
            throw new GraphException("pass '" + pass.name + "': read of '" + graph.nameOf(handle) + "' with the writing access " + access
                    + "; use write()");
        }
        graph.use(pass, handle, access);
        return handle;
    }

    /** Declares a write (or read-modify-write); returns the new version, which later passes must use. */
    @SuppressWarnings("unchecked")
    public <H extends Handle> H write(H handle, Access access) {
        if (handle == null) {
            throw new GraphException("pass '" + pass.name + "': write of a null handle");
        }
        if (!access.write()) {
            throw new GraphException("pass '" + pass.name + "': write of '" + graph.nameOf(handle) + "' with the read-only access " + access);
        }
        return (H) graph.use(pass, handle, access);
    }

    /** A color attachment of a graphics pass, cleared to {@code clear} (RGBA) or loaded when null. */
    public ImageHandle colorAttachment(ImageHandle image, float[] clear) {
        if (pass.kind != PassKind.GRAPHICS) {
            throw new GraphException("pass '" + pass.name + "' is " + pass.kind + "; only graphics passes have color attachments");
        }
        ImageHandle out = (ImageHandle) graph.use(pass, image, clear == null ? Access.COLOR_ATTACHMENT_LOAD : Access.COLOR_ATTACHMENT);
        if (clear != null && clear.length != 4) {
            throw new GraphException("pass '" + pass.name + "': the clear colour of '" + graph.nameOf(image) + "' has " + clear.length
                    + " components; give four (RGBA)");
        }
        pass.attach(image.resource(), clear);   // the colour is copied: the caller may reuse its array
        return out;
    }

    /** Never cull this pass (readbacks, presentation, writes the caller observes outside the graph). */
    public void sideEffect() {
        pass.sideEffect = true;
    }

    /**
     * This compute pass may run on the async compute queue, overlapping the main queue's work. A hint:
     * the runtime places it there when async compute is on (or measured faster) and a second queue
     * exists; otherwise it runs on the main queue with the same results.
     */
    public void asyncCompute() {
        if (pass.kind != PassKind.COMPUTE) {
            throw new GraphException("pass '" + pass.name + "' is " + pass.kind + "; only compute passes can run on the async compute queue");
        }
        pass.asyncCompute = true;
    }

    /** A transient buffer owned by the graph for this frame. */
    public BufferHandle create(String name, BufferDesc desc) {
        try {
            return graph.createBuffer(name, desc);
        } catch (GraphException e) {
            throw new GraphException("pass '" + pass.name + "': " + e.getMessage());
        }
    }

    /** A transient image owned by the graph for this frame. */
    public ImageHandle create(String name, ImageDesc desc) {
        try {
            return graph.createImage(name, desc);
        } catch (GraphException e) {
            throw new GraphException("pass '" + pass.name + "': " + e.getMessage());
        }
    }

    List<Pass.Use> uses() {
        return new ArrayList<>(pass.uses);
    }
}

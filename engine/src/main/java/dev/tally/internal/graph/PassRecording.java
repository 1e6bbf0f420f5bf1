package dev.tally.internal.graph;

import dev.tally.graph.PassContext;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.GraphException;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.vulkan.VkCommandBuffer;

/**
 * What a pass's execute step gets: the command buffer and the resources its setup declared, resolved
 * to GPU objects. A handle the pass did not declare is refused: the graph planned barriers only for
 * declared uses, so an undeclared one would be a silent hazard.
 */
final class PassRecording implements PassContext {
    private final VulkanContext ctx;
    // Bound again for each batch: one context serves every frame of a runtime.
    private VkCommandBuffer cmd;
    private Object[] physical;
    private GraphDeclaration graph;
    private Pass pass;
    private int width;
    private int height;

    PassRecording(VulkanContext ctx) {
        this.ctx = ctx;
    }

    /** The batch about to be recorded: its command buffer, the frame's objects by resource id, and the frame's graph. */
    void bind(VkCommandBuffer cmd, Object[] physical, GraphDeclaration graph) {
        // Written only where they change (the same objects batch after batch): each reference store costs the collector's write barrier.
        if (this.cmd != cmd) {
            this.cmd = cmd;
        }
        if (this.physical != physical) {
            this.physical = physical;
        }
        if (this.graph != graph) {
            this.graph = graph;
        }
    }

    void enter(Pass p) {
        this.pass = p;
    }

    void extent(int w, int h) {
        this.width = w;
        this.height = h;
    }

    public VkCommandBuffer cmd() { return cmd; }
    /** The frame number the graph is recording (0, 1, 2, ...). */
    public long frame() { return graph.frame(); }
    /** Render area of a graphics pass (its attachments' extent). */
    public int width() { return width; }
    public int height() { return height; }

    /** The buffer behind a handle this pass declared. */
    public TrackedBuffer buffer(BufferHandle h) {
        return (TrackedBuffer) physical[declared(h)];
    }

    /** The image behind a handle this pass declared. */
    public TrackedImage image(ImageHandle h) {
        return (TrackedImage) physical[declared(h)];
    }

    private int declared(Handle h) {
        if (pass == null) {
            throw new GraphException("a resource was asked for outside a pass's execute step");
        }
        if (h == null) {
            throw new GraphException("pass '" + pass.name + "': null handle asked for in its execute step");
        }
        if (!graph.owns(h)) {
            throw new GraphException("pass '" + pass.name + "': " + graph.foreign(h));
        }
        if (pass.uses(h.resource())) {
            return h.resource();
        }
        throw new GraphException("pass '" + pass.name + "' uses '" + graph.nameOf(h) + "' in its execute step but did not declare it in its setup");
    }
}

package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Access;

import dev.tally.graph.ImageDesc;

import dev.tally.internal.vk.ResourceState;

/**
 * Imports described by size or image description and an entry state, with no GPU object behind them: the
 * one door for tools that plan or time graphs without a device (the demo's graph benchmarks). A frame
 * declared for the GPU imports the renderer's own buffers and images ({@link GraphDeclaration#importBuffer},
 * {@link GraphDeclaration#importImage}) instead; these are not part of declaring a frame.
 */
public final class PlanningImports {
    private PlanningImports() {
    }

    /** An imported buffer of {@code size} bytes, last left in {@code entry}. */
    public static BufferHandle buffer(GraphDeclaration g, String name, long size, ResourceState entry, Access finalAccess) {
        return g.importDescribed(name, GraphResource.Origin.IMPORTED, g.importedDesc(size), entry, finalAccess);
    }

    /** An imported image described by {@code desc}, last left in {@code entry}. */
    public static ImageHandle image(GraphDeclaration g, String name, ImageDesc desc, ResourceState entry, Access finalAccess) {
        return g.importDescribed(name, desc, entry, finalAccess);
    }
}

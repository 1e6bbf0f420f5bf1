package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;

/** A resource declared in one frame: transient (graph-owned), imported (caller-owned) or history. */
final class GraphResource {
    enum Origin { TRANSIENT, IMPORTED, SCRATCH, HISTORY_PREVIOUS, HISTORY_CURRENT }

    final int id;
    String name;
    boolean image;
    Origin origin;
    BufferDesc bufferDesc;
    ImageDesc imageDesc;
    /** The physical object for imported and history resources (TrackedBuffer/TrackedImage), null for transients. */
    Object physical;
    /** State at frame start for imported and history resources (the runtime tracks it across frames). */
    ResourceState entry;
    /** The entry state comes from the runtime's tracking (resolved again when the frame is recorded). */
    boolean trackedEntry;
    /** Access the caller needs after the frame (present, host read), or null. */
    Access finalAccess;
    int version;
    /** writers[v] = index of the pass that produced version v (v >= 1), for v <= {@link #version}; made at the first write. */
    private int[] writers;

    /**
     * The handles issued in this slot, by name (a few names: a readback ring declares a different slot each frame
     * under a different name) and version. A handle stands only for the resource of its name, slot and version.
     */
    private final String[] handleNames = new String[NAMES_KEPT];
    private final IssuedHandle[][] handles = new IssuedHandle[NAMES_KEPT][];
    private int nextEvicted;
    /** The slot of {@link #name} among {@link #handleNames} once this declaration issued a handle, else -1. */
    private int nameSlot = -1;
    private static final int NAMES_KEPT = 4;

    GraphResource(int id) {
        this.id = id;
    }

    /** Declares the resource in this slot anew (a graph reuses its resources from frame to frame). */
    GraphResource init(String name, boolean image, Origin origin, BufferDesc bufferDesc, ImageDesc imageDesc, Object physical,
                       ResourceState entry, Access finalAccess) {
        // References are written only where they change (see ReusedSlots): a slot declared as in its last frame writes none.
        if (this.name != name) {
            this.name = name;
        }
        this.image = image;
        if (this.origin != origin) {
            this.origin = origin;
        }
        if (this.bufferDesc != bufferDesc) {
            this.bufferDesc = bufferDesc;
        }
        if (this.imageDesc != imageDesc) {
            this.imageDesc = imageDesc;
        }
        if (this.physical != physical) {
            this.physical = physical;
        }
        if (this.entry != entry) {
            this.entry = entry;
        }
        if (this.finalAccess != finalAccess) {
            this.finalAccess = finalAccess;
        }
        this.trackedEntry = false;
        this.version = 0;
        this.nameSlot = -1;
        return this;
    }

    /**
     * The handle of version {@code v} for graph {@code g}'s current declaration: the one issued before for this
     * slot, name and version (stamped with the new generation), else a new one, so that a handle kept from an
     * earlier frame never comes to stand for another resource (a name no longer kept drops its handles: they
     * keep their old generation and are refused).
     */
    Handle handle(GraphDeclaration g, int v, long generation) {
        int k = nameSlot;
        if (k < 0) {
            k = 0;
            while (k < NAMES_KEPT && !name.equals(handleNames[k])) {
                k++;
            }
        }
        if (k == NAMES_KEPT) {
            k = nextEvicted;
            nextEvicted = (nextEvicted + 1) % NAMES_KEPT;
            handleNames[k] = name;
            handles[k] = new IssuedHandle[Math.max(2, v + 1)];
        } else if (v >= handles[k].length) {
            handles[k] = java.util.Arrays.copyOf(handles[k], Math.max(2 * handles[k].length, v + 1));
        }
        nameSlot = k;
        IssuedHandle h = handles[k][v];
        if (h == null || (h instanceof IssuedImageHandle) != image) {
            h = image ? new IssuedImageHandle(g, id, v) : new IssuedBufferHandle(g, id, v);
            handles[k][v] = h;
        }
        h.generation = generation;
        return h;
    }

    /** The pass that produced version {@code v}, -1 for version 0. */
    int writer(int v) {
        return v == 0 ? -1 : writers[v];
    }

    /** Versions written so far, plus one (version 0). */
    int writerCount() {
        return version + 1;
    }

    /** Pass {@code pass} wrote the resource: a new version. */
    void written(int pass) {
        version++;
        if (writers == null) {
            writers = new int[]{-1, -1};
        } else if (version == writers.length) {
            writers = java.util.Arrays.copyOf(writers, 2 * writers.length);
        }
        writers[version] = pass;
    }

    boolean transientResource() {
        return origin == Origin.TRANSIENT;
    }

    /** Writes to these escape the frame, so their writers are never culled. */
    boolean escapes() {
        return origin == Origin.IMPORTED || origin == Origin.HISTORY_CURRENT;
    }

    long bytes() {
        if (!image) {
            return bufferDesc.size();
        }
        return (long) imageDesc.width() * imageDesc.height() * Formats.bytesPerPixel(imageDesc.format());
    }

    String describe() {
        return image ? imageDesc.width() + "x" + imageDesc.height() + " " + Formats.name(imageDesc.format()) : bufferDesc.size() + " B";
    }
}

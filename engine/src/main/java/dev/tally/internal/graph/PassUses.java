package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

/**
 * A pass's declared uses: each checked as it is declared (the handle's graph, type and version, the
 * access against the resource and the pass kind, cycles, reads of nothing, writes to last frame's
 * history) and recorded, a write making the resource's next version.
 */
final class PassUses {
    private PassUses() {
    }

    /** Records one use of {@code handle} by {@code pass} in {@code g}, validating it; returns the new handle for a write, the same for a read. */
    static Handle use(GraphDeclaration g, Pass pass, Handle handle, Access access) {
        if (handle == null) {
            throw new GraphException("pass '" + pass.name + "': null handle (a history's previous version is null on the first frame)");
        }
        if (!g.owns(handle)) {
            throw new GraphException("pass '" + pass.name + "': handle " + handle + " belongs to another frame's graph");
        }
        GraphResource r = g.resources.get(handle.resource());
        if (r.image != (handle instanceof ImageHandle)) {
            throw new GraphException("pass '" + pass.name + "': handle type does not match resource '" + r.name + "'");
        }
        checkAccessFits(pass, r, access);
        if (handle.version() != r.version) {
            int writer = r.writer(r.version);
            String by = writer >= 0 ? g.passes.get(writer).name : "?";
            if (access.write()) {
                throw new GraphException("pass '" + pass.name + "' writes '" + r.name + "' v" + handle.version() + ", but pass '" + by
                        + "' already wrote v" + r.version + " from it: two unordered writers; use the handle '" + by + "' returned");
            }
            throw new GraphException("pass '" + pass.name + "' uses a stale handle of '" + r.name + "' (v" + handle.version()
                    + "; current is v" + r.version + ", written by pass '" + by + "')");
        }
        for (int k = 0; k < pass.uses.size(); k++) {
            Pass.Use u = pass.uses.get(k);
            if (u.resource() == r.id && u.producedVersion() >= 0 && u.producedVersion() == handle.version()) {
                throw new GraphException("pass '" + pass.name + "' reads '" + r.name + "' that it writes itself: a cycle");
            }
        }
        boolean readsContent = !access.write() || access.readAccess() != 0;
        if (readsContent && r.version == 0 && r.origin == GraphResource.Origin.TRANSIENT) {
            throw new GraphException("pass '" + pass.name + "' reads '" + r.name + "', which no pass wrote");
        }
        if (r.origin == GraphResource.Origin.HISTORY_PREVIOUS && access.write()) {
            throw new GraphException("pass '" + pass.name + "' writes '" + r.name + "', last frame's history: it is read-only");
        }
        if (!access.write()) {
            pass.uses.add(useOf(g, pass, r.id, handle.version(), access, -1));
            return handle;
        }
        r.written(pass.index);
        pass.uses.add(useOf(g, pass, r.id, handle.version(), access, r.version));
        return g.written(r);
    }

    /**
     * The pass's next use: the same (immutable) object as the last recorded frame's pass at this position
     * made when it matches, as it does every frame of a steady topology, so declaring allocates no use.
     */
    private static Pass.Use useOf(GraphDeclaration g, Pass pass, int resource, int version, Access access, int producedVersion) {
        GraphDeclaration last = g.lastRecorded();
        int k = pass.uses.size();
        if (last != null && pass.index < last.passes.size() && k < last.passes.get(pass.index).uses.size()) {
            Pass.Use u = last.passes.get(pass.index).uses.get(k);
            if (u.resource() == resource && u.version() == version && u.access() == access && u.producedVersion() == producedVersion) {
                return u;
            }
        }
        return new Pass.Use(resource, version, access, producedVersion);
    }

    private static void checkAccessFits(Pass pass, GraphResource r, Access a) {
        boolean imageOnly = a == Access.COLOR_ATTACHMENT || a == Access.COLOR_ATTACHMENT_LOAD || a == Access.FRAGMENT_SAMPLED || a == Access.COMPUTE_SAMPLED || a == Access.PRESENT;
        if (imageOnly && !r.image) {
            throw new GraphException("pass '" + pass.name + "': access " + a + " needs an image, but '" + r.name + "' is a buffer");
        }
        if (a == Access.HOST_READ || a == Access.PRESENT || a == Access.NONE) {
            throw new GraphException("pass '" + pass.name + "': " + a + " of '" + r.name + "' is not a pass access; give it as the final access of an import");
        }
        boolean computeStage = a.stages() == Access.COMPUTE_READ.stages();
        boolean transferStage = a.stages() == Access.TRANSFER_SRC.stages();
        boolean ok = switch (pass.kind) {
            case COMPUTE -> computeStage;
            case TRANSFER -> transferStage;
            case GRAPHICS -> !computeStage && !transferStage;
        };
        if (!ok) {
            throw new GraphException("pass '" + pass.name + "' is a " + pass.kind.name().toLowerCase() + " pass and cannot use '" + r.name
                    + "' as " + a);
        }
    }
}

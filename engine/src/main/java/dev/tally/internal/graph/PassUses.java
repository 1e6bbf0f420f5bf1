package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.Handle;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * A pass's declared uses: each checked as it is declared (the handle's graph, type and version, the
 * access against the resource and the pass kind, cycles, reads of nothing, writes to last frame's
 * history) and recorded, a write making the resource's next version.
 */
final class PassUses {
    private PassUses() {
    }

    /**
     * Records one use of {@code handle} by {@code pass} in {@code g}, validating it; returns the new handle for a write, the same
     * for a read. The checks that pass are a few compares each; the messages are built out of line (in {@link #refuse}), so this
     * method stays small enough for the JIT to inline into the pass's setup.
     */
    static Handle use(GraphDeclaration g, Pass pass, Handle handle, Access access) {
        if (handle == null || !g.owns(handle)) {
            throw refuse(g, pass, handle, access);
        }
        GraphResource r = g.resources.get(handle.resource());
        boolean write = access.write();
        // Rejected below: a type mismatch, an access the pass kind or the resource cannot have, a stale handle, a use of
        // what this pass itself wrote (the current version's writer is this pass: a cycle, or a second write), a read of a transient no pass wrote,
        // a write to last frame's history.
        if (r.image != (handle instanceof IssuedImageHandle) || !accessFits(pass, r, access) || handle.version() != r.version
                || (r.version > 0 && r.writer(r.version) == pass.index)
                || (r.version == 0 && r.origin == GraphResource.Origin.TRANSIENT && (!write || access.readAccess() != 0))
                || (write && r.origin == GraphResource.Origin.HISTORY_PREVIOUS)) {
            throw refuse(g, pass, handle, access);
        }
        if (!write) {
            pass.use(useOf(pass, r.id, handle.version(), access, -1));
            return handle;
        }
        r.written(pass.index);
        pass.use(useOf(pass, r.id, handle.version(), access, r.version));
        return g.written(r);
    }

    /** The one-line error for a use {@link #use} refused, naming the pass, the resource and what is wrong. */
    private static GraphException refuse(GraphDeclaration g, Pass pass, Handle handle, Access access) {
        if (handle == null) {
            return new GraphException("pass '" + pass.name + "': null handle (a history's previous version is null on the first frame)");
        }
        if (!g.owns(handle)) {
            return new GraphException("pass '" + pass.name + "': " + g.foreign(handle));
        }
        GraphResource r = g.resources.get(handle.resource());
        if (r.image != (handle instanceof ImageHandle)) {
            return new GraphException("pass '" + pass.name + "': handle type does not match resource '" + r.name + "'");
        }
        GraphException misfit = accessMisfit(pass, r, access);
        if (misfit != null) {
            return misfit;
        }
        if (handle.version() != r.version) {
            int writer = r.writer(r.version);
            String by = writer >= 0 ? g.passes.get(writer).name : "?";
            if (access.write()) {
                return new GraphException("pass '" + pass.name + "' writes '" + r.name + "' v" + handle.version() + ", but pass '" + by
                        + "' already wrote v" + r.version + " from it: two unordered writers; use the handle '" + by + "' returned");
            }
            return new GraphException("pass '" + pass.name + "' uses a stale handle of '" + r.name + "' (v" + handle.version()
                    + "; current is v" + r.version + ", written by pass '" + by + "')");
        }
        if (r.version > 0 && r.writer(r.version) == pass.index) {
            return new GraphException("pass '" + pass.name + "' reads '" + r.name + "' that it writes itself: a cycle");
        }
        if (access.write() && r.origin == GraphResource.Origin.HISTORY_PREVIOUS) {
            return new GraphException("pass '" + pass.name + "' writes '" + r.name + "', last frame's history: it is read-only");
        }
        if (r.version == 0 && r.origin == GraphResource.Origin.TRANSIENT && (!access.write() || access.readAccess() != 0)) {
            return new GraphException("pass '" + pass.name + "' reads '" + r.name + "', which no pass wrote");
        }
        return new GraphException("internal error: a use of '" + r.name + "' by pass '" + pass.name + "' was refused with no reason found; please report it");
    }

    /**
     * The pass's next use: the same (immutable) object as the last recorded frame's pass at this position
     * made when it matches, as it does every frame of a steady topology, so declaring allocates no use.
     */
    private static Pass.Use useOf(Pass pass, int resource, int version, Access access, int producedVersion) {
        Pass last = pass.lastRecorded;
        int k = pass.uses.size();
        if (last != null && k < last.uses.size()) {
            Pass.Use u = last.uses.get(k);
            if (u.resource() == resource && u.version() == version && u.access() == access && u.producedVersion() == producedVersion) {
                return u;
            }
        }
        return new Pass.Use(resource, version, access, producedVersion);
    }

    /** Whether a pass of {@code pass}'s kind may use {@code r} with {@code a} ({@link #accessMisfit} says why not). */
    private static boolean accessFits(Pass pass, GraphResource r, Access a) {
        long stages = a.stages();
        boolean computeStage = stages == Access.COMPUTE_READ.stages();
        boolean transferStage = stages == Access.TRANSFER_SRC.stages();
        boolean kindFits = switch (pass.kind) {
            case COMPUTE -> computeStage;
            case TRANSFER -> transferStage;
            case GRAPHICS -> !computeStage && !transferStage;
        };
        return kindFits && (r.image || !imageOnly(a) && usageFits(r.bufferDesc.usage(), a))
                && a != Access.HOST_READ && a != Access.PRESENT && a != Access.NONE;
    }

    /**
     * The buffer usage flags {@code a} needs where the buffer's usage is known (a wrapped buffer's is not: 0 needs nothing
     * of it): storage for shader storage access, uniform for uniform reads, transfer source or destination for copies.
     */
    private static int usageNeeded(Access a) {
        long access = a.access();
        int need = 0;
        if ((access & (VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)) != 0) {
            need |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        }
        if ((access & VK_ACCESS_2_UNIFORM_READ_BIT) != 0) {
            need |= VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
        }
        if ((access & VK_ACCESS_2_TRANSFER_READ_BIT) != 0) {
            need |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        }
        if ((access & VK_ACCESS_2_TRANSFER_WRITE_BIT) != 0) {
            need |= VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        }
        return need;
    }

    private static boolean usageFits(int usage, Access a) {
        return usage == 0 || (usage & usageNeeded(a)) == usageNeeded(a);
    }

    private static String usageName(int usage) {
        return usage == VK_BUFFER_USAGE_STORAGE_BUFFER_BIT ? "VK_BUFFER_USAGE_STORAGE_BUFFER_BIT"
                : usage == VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT ? "VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT"
                : usage == VK_BUFFER_USAGE_TRANSFER_SRC_BIT ? "VK_BUFFER_USAGE_TRANSFER_SRC_BIT"
                : usage == VK_BUFFER_USAGE_TRANSFER_DST_BIT ? "VK_BUFFER_USAGE_TRANSFER_DST_BIT" : "usage 0x" + Integer.toHexString(usage);
    }

    private static boolean imageOnly(Access a) {
        return a == Access.COLOR_ATTACHMENT || a == Access.COLOR_ATTACHMENT_LOAD || a == Access.FRAGMENT_SAMPLED || a == Access.COMPUTE_SAMPLED
                || a == Access.PRESENT;
    }

    /** Why {@code pass} may not use {@code r} with {@code a}, or null when it may. */
    private static GraphException accessMisfit(Pass pass, GraphResource r, Access a) {
        if (imageOnly(a) && !r.image) {
            return new GraphException("pass '" + pass.name + "': access " + a + " needs an image, but '" + r.name + "' is a buffer");
        }
        if (a == Access.HOST_READ || a == Access.PRESENT || a == Access.NONE) {
            return new GraphException("pass '" + pass.name + "': " + a + " of '" + r.name + "' is not a pass access; give it as the final access of an import");
        }
        int missing = r.image || r.bufferDesc.usage() == 0 ? 0 : usageNeeded(a) & ~r.bufferDesc.usage();
        if (missing != 0) {
            return new GraphException("pass '" + pass.name + "': " + a + " of buffer '" + r.name + "' needs " + usageName(Integer.lowestOneBit(missing))
                    + ", which it was created without; add it to the buffer's usage");
        }
        if (!accessFits(pass, r, a)) {
            return new GraphException("pass '" + pass.name + "' is a " + pass.kind.name().toLowerCase() + " pass and cannot use '" + r.name
                    + "' as " + a);
        }
        return null;
    }
}

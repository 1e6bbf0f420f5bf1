package dev.tally.internal.guard;

import java.util.ArrayDeque;

/**
 * Releases what a constructor made when a later step of it fails (out of memory half-way, a shader
 * that does not compile): register each owned object, call {@link #done()} at the end.
 * <pre>try (ConstructionGuard guard = new ConstructionGuard()) { a = guard.add(new TrackedBuffer(...)); ...; guard.done(); }</pre>
 */
public final class ConstructionGuard implements AutoCloseable {
    private final ArrayDeque<AutoCloseable> owned = new ArrayDeque<>();
    private boolean done;

    public <T extends AutoCloseable> T add(T resource) {
        owned.push(resource);
        return resource;
    }

    /** The constructor finished: its object owns everything now. */
    public void done() {
        done = true;
    }

    @Override
    public void close() {
        if (done) {
            return;
        }
        while (!owned.isEmpty()) {
            try {
                owned.pop().close();
            } catch (Exception ignored) {
                // Best effort: the constructor's own failure is the error worth reporting.
            }
        }
    }
}

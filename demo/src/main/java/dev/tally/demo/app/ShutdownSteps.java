package dev.tally.demo.app;

/**
 * The demo's shutdown: every step runs even when an earlier one failed (a lost device, say), and the first
 * failure is thrown at the end with the later ones suppressed, so nothing stays open behind an early error.
 */
final class ShutdownSteps {
    private RuntimeException failure;

    /** Runs {@code step}, keeping its failure for {@link #rethrow()}. */
    ShutdownSteps then(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        return this;
    }

    /** Closes each non-null owner in the order given, each as a step of its own. */
    ShutdownSteps closing(AutoCloseable... owners) {
        for (AutoCloseable owner : owners) {
            if (owner != null) {
                then(() -> closeOne(owner));
            }
        }
        return this;
    }

    private static void closeOne(AutoCloseable owner) {
        try {
            owner.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing " + owner + ": " + e.getMessage(), e);
        }
    }

    /** Throws the first failure, if there was one. */
    void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }
}

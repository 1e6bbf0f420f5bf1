package dev.tally.internal.vk;

/**
 * Shutdown that runs every step even when one fails: the first failure is rethrown at the end with
 * the later ones attached as suppressed, so nothing is left open behind an early error.
 */
public final class CloseSteps {
    private RuntimeException first;

    public CloseSteps run(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            if (first == null) {
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }
        return this;
    }

    /** Closes each of {@code resources} that is not null, in the order given, as one step each. */
    public CloseSteps close(AutoCloseable... resources) {
        for (AutoCloseable c : resources) {
            if (c != null) {
                run(() -> {
                    try {
                        c.close();
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException("closing " + c + " failed: " + e.getMessage(), e);
                    }
                });
            }
        }
        return this;
    }

    /** Throws the first failure, if any. */
    public void finish() {
        if (first != null) {
            throw first;
        }
    }
}

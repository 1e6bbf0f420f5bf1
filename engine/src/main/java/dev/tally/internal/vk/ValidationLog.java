package dev.tally.internal.vk;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts and keeps what the validation layer said. Tests fail on any error or warning; the demo
 * reports the counts in its stats file.
 */
public final class ValidationLog {
    private static final int KEPT = 64;
    private final AtomicInteger errors = new AtomicInteger();
    private final AtomicInteger warnings = new AtomicInteger();
    private final List<String> messages = new ArrayList<>();

    void record(boolean error, String message) {
        (error ? errors : warnings).incrementAndGet();
        synchronized (messages) {
            if (messages.size() < KEPT) {
                messages.add((error ? "error: " : "warning: ") + message);
            }
        }
        System.err.println("[validation " + (error ? "error" : "warning") + "] " + message);
    }

    public int errors() {
        return errors.get();
    }

    public int warnings() {
        return warnings.get();
    }

    public int total() {
        return errors() + warnings();
    }

    /** The first messages (at most 64), for test failure reports. */
    public List<String> messages() {
        synchronized (messages) {
            return List.copyOf(messages);
        }
    }

    /** True when any kept message contains {@code fragment}. */
    public boolean mentions(String fragment) {
        return messages().stream().anyMatch(m -> m.contains(fragment));
    }
}

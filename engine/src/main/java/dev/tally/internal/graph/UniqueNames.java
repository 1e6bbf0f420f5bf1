package dev.tally.internal.graph;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The names of one kind of thing declared in a frame (its resources, or its passes), kept unique. A
 * duplicate is found by scanning what was declared while a frame has few, and through a hash set once it
 * has more than {@link #SCAN_LIMIT}: a typical frame allocates no set.
 */
final class UniqueNames {
    private static final int SCAN_LIMIT = 64;
    private Set<String> set;

    /** Forgets every name: a new frame's declaration begins (the set, if one was made, is kept for it). */
    void reset() {
        if (set != null) {
            set.clear();
        }
    }

    /**
     * False when one of {@code declared} (named by {@code nameOf}, a non-capturing function) already has
     * {@code name}; called before the new one is added.
     */
    <T> boolean claim(String name, List<T> declared, Function<T, String> nameOf) {
        if (set == null && declared.size() >= SCAN_LIMIT) {
            set = new HashSet<>();
            for (int i = 0; i < declared.size(); i++) {
                set.add(nameOf.apply(declared.get(i)));
            }
        }
        if (set != null) {
            return set.add(name);
        }
        for (int i = 0; i < declared.size(); i++) {
            if (nameOf.apply(declared.get(i)).equals(name)) {
                return false;
            }
        }
        return true;
    }
}

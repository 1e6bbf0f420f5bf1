package dev.tally.graph;

import java.util.Arrays;

/**
 * Where each imported, scratch and history resource was left, by the serial of its buffer or image, and
 * the frame that last saw it. Open addressing on primitive keys: recording a frame's final states and
 * reading them back allocates nothing (a map of boxed serials would allocate on every put). Entries not
 * seen for a while are dropped by {@link #forgetOlderThan}, which rebuilds the table.
 */
final class TrackedStates {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private ResourceState[] states;
    private long[] seen;
    private int size;

    TrackedStates() {
        allocate(64);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        Arrays.fill(keys, EMPTY);
        states = new ResourceState[capacity];
        seen = new long[capacity];
        size = 0;
    }

    private int slotOf(long key) {
        int mask = keys.length - 1;
        int i = Long.hashCode(key * 0x9E3779B97F4A7C15L) & mask;
        while (keys[i] != EMPTY && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** The state of {@code serial}, or {@link ResourceState#UNUSED} when it is not tracked. */
    ResourceState get(long serial) {
        int i = slotOf(serial);
        return keys[i] == EMPTY ? ResourceState.UNUSED : states[i];
    }

    /** {@code serial} was left in {@code state}, seen in frame {@code frame}. */
    void put(long serial, ResourceState state, long frame) {
        if (serial == EMPTY) {
            throw new IllegalArgumentException("serial " + serial + " is reserved");
        }
        int i = slotOf(serial);
        if (keys[i] == EMPTY) {
            if (2 * (size + 1) > keys.length) {
                grow(2 * keys.length);
                i = slotOf(serial);
            }
            keys[i] = serial;
            size++;
        }
        states[i] = state;
        seen[i] = frame;
    }

    /** Drops the entries last seen more than {@code frames} frames before {@code now}. */
    void forgetOlderThan(long now, long frames) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY && now - seen[i] > frames) {
                rebuild(keys.length, now, frames);   // only when something is dropped
                return;
            }
        }
    }

    private void grow(int capacity) {
        rebuild(capacity, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    private void rebuild(int capacity, long now, long frames) {
        long[] oldKeys = keys;
        ResourceState[] oldStates = states;
        long[] oldSeen = seen;
        allocate(capacity);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY && !(now - oldSeen[i] > frames)) {
                int j = slotOf(oldKeys[i]);
                keys[j] = oldKeys[i];
                states[j] = oldStates[i];
                seen[j] = oldSeen[i];
                size++;
            }
        }
    }

    int size() {
        return size;
    }
}

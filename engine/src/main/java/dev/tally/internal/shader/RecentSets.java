package dev.tally.internal.shader;

import static org.lwjgl.vulkan.VK10.VK_NULL_HANDLE;

/**
 * The last {@value #ROWS} bindings a {@link DescriptorSets} handed a set for, each a row of one array of longs beside
 * its set. A pass binds what it bound last frame, or one of a few in turn (a history's two buffers, a ring's slots), so
 * a lookup is answered here by comparing the caller's entries with rows of one array, the row whose digest is the caller's
 * first: no map, no reference written (a frame's lookups stay off the map's nodes and the keys' arrays, wherever the heap
 * put them).
 */
final class RecentSets {
    static final int ROWS = 16;
    /** ROWS rows of {@code width} longs: a row's first {@code longs[row]} hold its bindings' entries. */
    private long[] rows = new long[0];
    private int width;
    /** By row: how many longs its bindings fill (-1: empty), their digest, its set, and when it was last found or filled. */
    private final int[] longs = new int[ROWS];
    private final long[] digests = new long[ROWS];
    private final long[] sets = new long[ROWS];
    private final long[] used = new long[ROWS];
    private long clock;

    RecentSets() {
        java.util.Arrays.fill(longs, -1);
    }

    /** The set of the row holding exactly {@code b}'s entries, or VK_NULL_HANDLE when none does. */
    long find(Bindings b) {
        int n = b.longs();
        long digest = b.digest();
        for (int r = 0; r < ROWS; r++) {
            // The digest first: of a kernel's rows (as long as one another) only the one holding these resources compares whole.
            if (digests[r] == digest && longs[r] == n && b.sameAs(rows, r * width)) {
                used[r] = ++clock;
                return sets[r];
            }
        }
        return VK_NULL_HANDLE;
    }

    /** Keeps {@code b}'s entries and {@code set} in the least recently used row. */
    void remember(Bindings b, long set) {
        int n = b.longs();
        if (n > width) {
            widen(n);
        }
        int row = 0;
        for (int r = 1; r < ROWS; r++) {
            if (used[r] < used[row]) {
                row = r;
            }
        }
        b.copyTo(rows, row * width);
        longs[row] = n;
        digests[row] = b.digest();
        sets[row] = set;
        used[row] = ++clock;
    }

    /** Whether {@code set} is in a row. */
    boolean holds(long set) {
        for (int r = 0; r < ROWS; r++) {
            if (longs[r] >= 0 && sets[r] == set) {
                return true;
            }
        }
        return false;
    }

    /** Empties the row of {@code set} (freed: never handed out again). */
    void forget(long set) {
        for (int r = 0; r < ROWS; r++) {
            if (longs[r] >= 0 && sets[r] == set) {
                longs[r] = -1;
                sets[r] = VK_NULL_HANDLE;
                used[r] = 0;
            }
        }
    }

    private void widen(int n) {
        long[] wider = new long[ROWS * n];
        for (int r = 0; r < ROWS; r++) {
            if (longs[r] > 0) {
                System.arraycopy(rows, r * width, wider, r * n, longs[r]);
            }
        }
        rows = wider;
        width = n;
    }
}

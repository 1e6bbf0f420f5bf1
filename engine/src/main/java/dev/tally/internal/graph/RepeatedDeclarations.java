package dev.tally.internal.graph;

/**
 * What one kind of declaration gave in a frame, in order, over what the same graph's last declaration gave: while a frame
 * declares the same objects in the same order (a steady frame does), each is distinct from the ones before it, because
 * the last declaration's were, and a table that finds duplicates need not be filled. A repeated item costs one
 * comparison of references: the object itself (its hash, its characters) is not read.
 * <p>
 * A frame may depart from the last declaration at a few places ({@link #MAX_DEPARTURES}) and go on repeating it after
 * them: a readback ring imports another slot each frame, under another name. A departing item is compared with the
 * frame's items before it and with the last declaration's after it, through the hashes kept beside the items (one array
 * of ints, not the objects); one equal to a later item of the last declaration marks that place, so that the item is
 * refused there if the frame repeats it. Past that many departures the owner fills its table with the frame's items so
 * far ({@link #get}) and carries on with the table.
 */
final class RepeatedDeclarations {
    /** Departures a frame may make before its owner turns to its table (each costs a pass over the hashes). */
    static final int MAX_DEPARTURES = 4;

    private Object[] items = new Object[64];
    /** By place: the item's hash (its own hashCode where items are equal by content; unused where by identity). */
    private int[] hashes = new int[64];
    /** This frame's items so far (places 0..count), and the last declaration's (items[count..lastCount) while repeating). */
    private int count, lastCount;
    private boolean repeating = true;
    private int departures;
    /** Places of the last declaration whose item equals one this frame declared before reaching them. */
    private int[] marked = new int[4];
    private int markedCount;
    /** Items compared by identity (GPU objects) rather than by content (names). */
    private final boolean byIdentity;

    RepeatedDeclarations(boolean byIdentity) {
        this.byIdentity = byIdentity;
    }

    /** A new declaration begins: this one's items become the ones the next repeats. */
    void reset() {
        lastCount = count;
        count = 0;
        repeating = true;
        departures = 0;
        markedCount = 0;
    }

    /** Whether this frame still follows the last declaration (repeating it, with at most a few departures). */
    boolean repeating() {
        return repeating;
    }

    /**
     * Whether {@code item}, declared next, is the one the last declaration gave at this place and no item of this frame
     * equals it: then it is distinct from every item declared so far.
     */
    boolean repeats(Object item) {
        return repeating && count < lastCount && items[count] == item && !marked(count);
    }

    /** Whether the frame may depart here and go on following the last declaration after ({@link #depart}). */
    boolean mayDepart() {
        return repeating && departures < MAX_DEPARTURES;
    }

    /** The place of this frame's item equal to {@code item} (hash {@code hash}), or -1; null equals nothing. */
    int placeOf(Object item, int hash) {
        return item == null ? -1 : find(item, hash, 0, count);
    }

    /** Appends {@code item} where the frame departs from the last declaration (found in no place of this frame by {@link #placeOf}). */
    void depart(Object item, int hash) {
        departures++;
        if (item != null) {
            for (int from = count + 1, at; (at = find(item, hash, from, lastCount)) >= 0; from = at + 1) {
                mark(at);
            }
        }
        put(item, hash);
    }

    /** Appends {@code item}, which {@link #repeats} answered true for. */
    void repeat(Object item) {
        if (!repeats(item)) {
            throw new IllegalStateException("internal: item " + count + " added as a repeat of the last declaration, which it is not");
        }
        count++;
    }

    /** The frame stops following the last declaration: the owner fills its table with items 0..{@link #count()} now. */
    void stopRepeating() {
        repeating = false;
    }

    /** Appends {@code item} once the frame no longer follows the last declaration (its owner's table said it is new). */
    void append(Object item, int hash) {
        if (repeating) {
            throw new IllegalStateException("internal: item " + count + " appended while the frame still follows the last declaration");
        }
        put(item, hash);
    }

    int count() {
        return count;
    }

    Object get(int i) {
        return items[i];
    }

    private void put(Object item, int hash) {
        if (count == items.length) {
            items = java.util.Arrays.copyOf(items, 2 * count);
            hashes = java.util.Arrays.copyOf(hashes, 2 * count);
        }
        items[count] = item;
        hashes[count] = hash;
        count++;
    }

    private int find(Object item, int hash, int from, int to) {
        for (int i = from; i < to; i++) {
            Object o = items[i];
            if (o == item || (!byIdentity && hashes[i] == hash && item.equals(o))) {
                return i;
            }
        }
        return -1;
    }

    private boolean marked(int place) {
        for (int i = 0; i < markedCount; i++) {
            if (marked[i] == place) {
                return true;
            }
        }
        return false;
    }

    private void mark(int place) {
        if (markedCount == marked.length) {
            marked = java.util.Arrays.copyOf(marked, 2 * markedCount);
        }
        marked[markedCount++] = place;
    }
}

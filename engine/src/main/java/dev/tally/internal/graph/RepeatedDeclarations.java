package dev.tally.internal.graph;

/**
 * What one kind of declaration gave in a frame, in order, over what the same graph's last declaration gave: while a frame
 * declares the same objects in the same order (a steady frame does), each is distinct from the ones before it, because
 * the last declaration's were, and a table that finds duplicates need not be filled. The first difference ends the
 * repeat: the owner then fills its table with this frame's items so far ({@link #get}) and carries on with the table.
 * A repeated item costs one comparison of references: the object itself (its hash, its characters) is not read.
 */
final class RepeatedDeclarations {
    private Object[] items = new Object[64];
    /** This frame's items so far, and the last declaration's (items[0..lastCount) while this frame repeats them). */
    private int count, lastCount;
    private boolean repeating = true;

    /** A new declaration begins: this one's items become the ones the next repeats. */
    void reset() {
        lastCount = count;
        count = 0;
        repeating = true;
    }

    /** Whether this frame so far declared what the last declaration did, in the same order. */
    boolean repeating() {
        return repeating;
    }

    /** Whether {@code item}, declared next, is the one the last declaration gave at this place (and every earlier one repeated). */
    boolean repeats(Object item) {
        return repeating && count < lastCount && items[count] == item;
    }

    /** The frame departs from the last declaration: the owner fills its table with items 0..{@link #count()} now. */
    void stopRepeating() {
        repeating = false;
    }

    int count() {
        return count;
    }

    Object get(int i) {
        return items[i];
    }

    /** Appends {@code item}: while repeating, only one {@link #repeats} answered true for. */
    void add(Object item) {
        if (repeating) {
            if (count >= lastCount || items[count] != item) {
                throw new IllegalStateException("internal: item " + count + " added as a repeat of the last declaration, which it is not");
            }
        } else {
            if (count == items.length) {
                items = java.util.Arrays.copyOf(items, 2 * count);
            }
            items[count] = item;
        }
        count++;
    }
}

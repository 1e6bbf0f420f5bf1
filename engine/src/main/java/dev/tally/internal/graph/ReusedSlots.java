package dev.tally.internal.graph;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * A list refilled every frame with mostly the same objects at the same positions (a graph's pooled passes and
 * resources, a pass's uses): {@link #clear} keeps the slots, and {@link #add} writes a slot only when it holds another
 * object. A reference store into an old object costs a collector's write barrier (with G1, a store of a reference into
 * an object of another region than its own runs a memory fence and dirties a card); a frame that repeats the last one's
 * declaration writes none. The
 * slots past {@link #size} keep their last objects, so a list may only hold objects whose keeping costs nothing: pooled
 * ones something else keeps alive anyway, or a pass's few small immutable uses.
 */
final class ReusedSlots<T> extends AbstractList<T> implements RandomAccess {
    private Object[] slots;
    private int size;
    /** Slots written since the list was made: none while every fill repeats the last. */
    private long writes;

    ReusedSlots(int capacity) {
        slots = new Object[Math.max(1, capacity)];
    }

    @Override
    public boolean add(T item) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, 2 * size);
        }
        if (slots[size] != item) {
            slots[size] = item;
            writes++;
        }
        size++;
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return (T) slots[index];
    }

    @Override
    public int size() {
        return size;
    }

    /** How many times {@link #add} wrote a slot (an object other than the one it held). */
    long writes() {
        return writes;
    }

    /** Empties the list; the slots keep their objects for the next fill to compare with. */
    @Override
    public void clear() {
        size = 0;
    }
}

package dev.tally.internal.graph;

/**
 * The names of one kind of thing declared in a frame (its resources, or its passes), kept unique: an
 * open-addressing table of the names claimed this frame, keyed by the strings' own (cached) hashes, so a
 * claim costs the same whatever the frame's size. A slot belongs to this frame when its stamp is the
 * frame's generation: a new frame forgets every name without clearing the table, and allocates nothing
 * once the table is large enough for the frame. While a frame claims the names the graph's last declaration claimed, the
 * same objects in the same order but for a few, the table is not touched ({@link RepeatedDeclarations}).
 */
final class UniqueNames {
    private String[] names = new String[64];
    private int[] stamps = new int[64];
    private int generation = 1;
    private int count;
    private final RepeatedDeclarations order = new RepeatedDeclarations(false);

    /** Forgets every name: a new frame's declaration begins. */
    void reset() {
        count = 0;
        order.reset();
        if (++generation == Integer.MAX_VALUE) {   // after two billion frames: stamps start over
            java.util.Arrays.fill(stamps, 0);
            generation = 1;
        }
    }

    /** Claims {@code name} for this frame: false when it was claimed already (the caller reports the duplicate). */
    boolean claim(String name) {
        if (order.repeats(name)) {
            order.repeat(name);
            return true;
        }
        if (order.mayDepart()) {
            int hash = name.hashCode();
            if (order.placeOf(name, hash) >= 0) {
                return false;
            }
            order.depart(name, hash);
            return true;
        }
        if (order.repeating()) {
            order.stopRepeating();
            for (int i = 0; i < order.count(); i++) {
                put((String) order.get(i));
            }
        }
        if (!put(name)) {
            return false;
        }
        order.append(name, name.hashCode());
        return true;
    }

    /** Puts {@code name} in the table: false when it is there already. */
    private boolean put(String name) {
        if (2 * (count + 1) > names.length) {
            grow();
        }
        int mask = names.length - 1;
        for (int i = spread(name.hashCode()) & mask; ; i = (i + 1) & mask) {
            if (stamps[i] != generation) {
                names[i] = name;
                stamps[i] = generation;
                count++;
                return true;
            }
            String n = names[i];
            if (n == name || n.equals(name)) {
                return false;
            }
        }
    }

    private void grow() {
        String[] oldNames = names;
        int[] oldStamps = stamps;
        names = new String[2 * oldNames.length];
        stamps = new int[2 * oldNames.length];
        int mask = names.length - 1;
        for (int j = 0; j < oldNames.length; j++) {
            if (oldStamps[j] == generation) {
                int i = spread(oldNames[j].hashCode()) & mask;
                while (stamps[i] == generation) {
                    i = (i + 1) & mask;
                }
                names[i] = oldNames[j];
                stamps[i] = generation;
            }
        }
    }

    /** Mixes the high bits in: names that differ in their last characters ("pass12", "pass13") spread over the table. */
    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}

package dev.tally.internal.graph;

/**
 * The GPU objects (buffers, images) declared in a frame, each with the resource that declared it: an open-addressing
 * table keyed by the objects' identity hashes, so finding a second declaration of one object costs the same whatever
 * the frame's size (a walk over the frame's resources made declaring n resources cost n squared). A slot belongs to this
 * frame when its stamp is the frame's generation: a new frame forgets every object without clearing the table.
 * While a frame declares what the graph's last declaration did, the same objects in the same order but for a few (null
 * for a resource with no object behind it), the table is not touched ({@link RepeatedDeclarations}).
 */
final class DeclaredObjects {
    private Object[] objects = new Object[64];
    private int[] resources = new int[64];
    private int[] stamps = new int[64];
    private int generation = 1;
    private int count;
    /** The frame's declarations in order (null: a resource with no object), and the resource each was declared by. */
    private final RepeatedDeclarations order = new RepeatedDeclarations(true);
    private int[] orderResources = new int[64];

    /** Forgets every object: a new frame's declaration begins. */
    void reset() {
        count = 0;
        order.reset();
        if (++generation == Integer.MAX_VALUE) {   // after two billion frames: stamps start over
            java.util.Arrays.fill(stamps, 0);
            generation = 1;
        }
    }

    /** The resource that declared {@code object} this frame, or -1 when none did (or {@code object} is null). */
    int resourceOf(Object object) {
        if (order.repeats(object)) {
            return -1;   // declared next as last time, after the same ones: distinct from them, as it was then
        }
        if (order.mayDepart()) {
            int at = order.placeOf(object, 0);
            return at < 0 ? -1 : orderResources[at];
        }
        tableFromOrder();
        if (object == null) {
            return -1;
        }
        int mask = objects.length - 1;
        for (int i = spread(System.identityHashCode(object)) & mask; stamps[i] == generation; i = (i + 1) & mask) {
            if (objects[i] == object) {
                return resources[i];
            }
        }
        return -1;
    }

    /**
     * Records that resource {@code resource} declared {@code object} (null: a resource with no object behind it), which
     * {@link #resourceOf} found undeclared just before.
     */
    void declare(Object object, int resource) {
        int at = order.count();
        if (at == orderResources.length) {
            orderResources = java.util.Arrays.copyOf(orderResources, 2 * at);
        }
        orderResources[at] = resource;
        if (order.repeats(object)) {
            order.repeat(object);
        } else if (order.mayDepart()) {
            order.depart(object, 0);
        } else {
            tableFromOrder();
            order.append(object, 0);
            if (object != null) {
                insert(object, resource);
            }
        }
    }

    /** The frame no longer follows the last declaration: its objects so far go into the table (once). */
    private void tableFromOrder() {
        if (!order.repeating()) {
            return;
        }
        order.stopRepeating();
        for (int i = 0; i < order.count(); i++) {
            if (order.get(i) != null) {
                insert(order.get(i), orderResources[i]);
            }
        }
    }

    private void insert(Object object, int resource) {
        if (2 * (count + 1) > objects.length) {
            grow();
        }
        put(object, resource);
        count++;
    }

    private void put(Object object, int resource) {
        int mask = objects.length - 1;
        int i = spread(System.identityHashCode(object)) & mask;
        while (stamps[i] == generation) {
            i = (i + 1) & mask;
        }
        objects[i] = object;
        resources[i] = resource;
        stamps[i] = generation;
    }

    private void grow() {
        Object[] oldObjects = objects;
        int[] oldResources = resources, oldStamps = stamps;
        objects = new Object[2 * oldObjects.length];
        resources = new int[objects.length];
        stamps = new int[objects.length];
        for (int j = 0; j < oldObjects.length; j++) {
            if (oldStamps[j] == generation) {
                put(oldObjects[j], oldResources[j]);
            }
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}

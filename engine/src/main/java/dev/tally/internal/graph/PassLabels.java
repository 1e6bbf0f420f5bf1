package dev.tally.internal.graph;

import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.EXTDebugUtils;
import org.lwjgl.vulkan.VkDebugUtilsLabelEXT;

/**
 * The debug labels a runtime's passes are recorded under (VkDebugUtilsLabelEXT, its name in UTF-8 after it), each made
 * once per name in memory of its own and kept until the runtime closes: a frame labels every pass again under the
 * same names, and encoding each name on the stack every frame cost more than the label call. At most {@link #CAPACITY}
 * names are kept; a name past them gets no kept label (the caller labels it on the stack), so names made anew every
 * frame cannot grow the table.
 */
final class PassLabels implements AutoCloseable {
    static final int CAPACITY = 256;

    /** Open addressing, twice the capacity: the names kept and their labels' addresses. */
    private final String[] names = new String[2 * CAPACITY];
    private final long[] labels = new long[2 * CAPACITY];
    private int count;

    /**
     * The names asked for in the order they were asked, with their labels: a frame asks for its passes' names in the
     * order the last frame did, so each is found by comparing one reference with the next in this order (the name's
     * characters and hash, wherever the heap put them, are not read). A name out of order restarts the order at its head
     * or is looked up in the table.
     */
    private final String[] order = new String[ORDER];
    private final long[] orderLabels = new long[ORDER];
    private int next;
    private static final int ORDER = 64;

    /** The kept label of {@code name}, made now if new; 0 when the table is full (label it some other way). */
    long of(String name) {
        int at = next;
        if (at < ORDER && order[at] == name) {
            next = at + 1;
            return orderLabels[at];
        }
        if (order[0] == name) {   // a new frame's first pass
            next = 1;
            return orderLabels[0];
        }
        long label = lookup(name);
        if (label != 0) {
            if (at >= ORDER) {
                at = 0;   // the order is recorded again from its head, from this name on: a frame's sequence is a cycle of it
            }
            order[at] = name;
            orderLabels[at] = label;
            next = at + 1;
        }
        return label;
    }

    private long lookup(String name) {
        int mask = names.length - 1;
        int h = name.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        for (String n = names[i]; n != null; n = names[i = (i + 1) & mask]) {
            if (n == name || n.equals(name)) {
                return labels[i];
            }
        }
        if (count == CAPACITY) {
            return 0;
        }
        int bytes = MemoryUtil.memLengthUTF8(name, true);
        long label = MemoryUtil.nmemCalloc(1, VkDebugUtilsLabelEXT.SIZEOF + bytes);
        if (label == 0) {
            throw new OutOfMemoryError("debug label of pass '" + name + "': " + (VkDebugUtilsLabelEXT.SIZEOF + bytes) + " bytes");
        }
        long text = label + VkDebugUtilsLabelEXT.SIZEOF;
        MemoryUtil.memUTF8(name, true, MemoryUtil.memByteBuffer(text, bytes));
        VkDebugUtilsLabelEXT.nsType(label, EXTDebugUtils.VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT);
        MemoryUtil.memPutAddress(label + VkDebugUtilsLabelEXT.PLABELNAME, text);
        names[i] = name;
        labels[i] = label;
        count++;
        return label;
    }

    int size() {
        return count;
    }

    @Override
    public void close() {
        java.util.Arrays.fill(order, null);
        java.util.Arrays.fill(orderLabels, 0);
        next = 0;
        for (int i = 0; i < names.length; i++) {
            if (names[i] != null) {
                MemoryUtil.nmemFree(labels[i]);
                names[i] = null;
                labels[i] = 0;
            }
        }
        count = 0;
    }
}

package dev.tally.demo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JVM's garbage collections so far, from its collectors' MXBeans: read between stretches of frames,
 * the difference says whether the frame loop made the collector run.
 */
final class GcCounter {
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();

    /** Collections so far, all collectors together (a collector that does not count reports -1 and is left out). */
    long total() {
        long n = 0;
        for (int i = 0; i < collectors.size(); i++) {
            n += Math.max(0, collectors.get(i).getCollectionCount());
        }
        return n;
    }

    /** Each collector's count so far, for a failure message: "G1 Young Generation 3, G1 Old Generation 0". */
    String byCollector() {
        StringBuilder b = new StringBuilder();
        for (GarbageCollectorMXBean c : collectors) {
            b.append(b.length() == 0 ? "" : ", ").append(c.getName()).append(' ').append(c.getCollectionCount());
        }
        return b.toString();
    }
}

package dev.tally.demo.graphcheck;

import dev.tally.graph.AsyncMode;
import dev.tally.internal.graph.PassOrder;

import java.util.ArrayList;
import java.util.List;

/**
 * One way of running a graph: the pass order, whether transients are poisoned with NaN before their first
 * use, and whether async compute passes get a lane of their own (on a device with one queue, the lanes are
 * split into batches with semaphores between them on that queue).
 */
public record Variant(PassOrder order, boolean poison, AsyncMode async) {
    /**
     * The reference (declared order, no poison, async off) first, then poison, async on, and
     * {@code randomOrders} random legal orders alternating async on and off, all poisoned but the last.
     */
    public static List<Variant> standard(long graphSeed, int randomOrders) {
        List<Variant> out = new ArrayList<>(List.of(new Variant(PassOrder.DECLARED, false, AsyncMode.OFF),
                new Variant(PassOrder.DECLARED, true, AsyncMode.OFF), new Variant(PassOrder.DECLARED, false, AsyncMode.ON)));
        for (int k = 1; k <= randomOrders; k++) {
            out.add(new Variant(PassOrder.random(graphSeed * 31 + k), k < randomOrders || randomOrders == 1,
                    k % 2 == 1 ? AsyncMode.ON : AsyncMode.OFF));
        }
        return out;
    }

    @Override
    public String toString() {
        return "order " + (order == PassOrder.DECLARED ? "declared" : order.toString()) + ", poison " + (poison ? "on" : "off") + ", async "
                + async.name().toLowerCase(java.util.Locale.ROOT);
    }
}

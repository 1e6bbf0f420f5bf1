package dev.tally.demo;

import dev.tally.internal.reduce.OneShotReduction;
import dev.tally.reduce.ReduceStats;

import java.util.Locale;

/** {@code ./tally reduce --op stats}: the statistics record as text lines or one JSON line. */
final class StatsOutput {
    private StatsOutput() {
    }

    static void print(OneShotReduction.StatsResult result, String device, boolean json) {
        ReduceStats s = result.stats();
        if (json) {
            System.out.printf(Locale.ROOT, "{\"op\":\"stats\",\"count\":%d,\"sum\":%s,\"min\":%s,\"max\":%s,\"mean\":%s,\"variance\":%s,"
                            + "\"device\":%s,\"gpuMillis\":%s}%n", s.count(), Json.number(s.sum()), Json.number(s.min()), Json.number(s.max()),
                    Json.number(s.mean()), Json.number(s.variance()), Json.string(device), Json.number(result.gpuMillis()));
            return;
        }
        System.out.println("count " + s.count());
        System.out.println("sum " + s.sum());
        System.out.println("min " + s.min());
        System.out.println("max " + s.max());
        System.out.println("mean " + s.mean());
        System.out.println("variance " + s.variance());
    }
}

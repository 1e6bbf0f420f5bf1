package dev.tally.demo.bench;

/** One measured case, as printed in the table and written to the JSON file. */
public record BenchResult(String name, long n, boolean cold, double gpuMicrosMedian, double gpuMicrosMin,
                          double gpuMicrosMax, double bandwidthGBs, String config) {
}

package dev.tally.demo.bench;

/**
 * One measured case, as printed in the table and written to the JSON file. {@code extraJson} is null or
 * further JSON members ({@code "key": value, ...}) for cases that are not GPU times alone.
 */
public record BenchResult(String name, long n, boolean cold, double gpuMicrosMedian, double gpuMicrosMin,
                          double gpuMicrosMax, double bandwidthGBs, String config, String extraJson) {
    public BenchResult(String name, long n, boolean cold, double gpuMicrosMedian, double gpuMicrosMin,
                       double gpuMicrosMax, double bandwidthGBs, String config) {
        this(name, n, cold, gpuMicrosMedian, gpuMicrosMin, gpuMicrosMax, bandwidthGBs, config, null);
    }
}

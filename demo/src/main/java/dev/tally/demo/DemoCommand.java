package dev.tally.demo;

import dev.tally.TallyRuntime;
import dev.tally.reduce.DeviceArray;
import dev.tally.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import picocli.CommandLine;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/** {@code ./tally demo}: reduce a generated array on the GPU and check it against the CPU. */
@CommandLine.Command(name = "demo", description = "Run the demo.")
final class DemoCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--count", defaultValue = "16777216", description = "floats to reduce (default 2^24)")
    int count;

    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        if (count < 0) {
            throw new UserInputException("--count: must not be negative, got " + count);
        }
        float[] data = new float[count];
        SplittableRandom random = new SplittableRandom(42);
        double reference = 0;
        for (int i = 0; i < count; i++) {
            data[i] = (float) random.nextDouble();
            reference += data[i];
        }
        try (TallyRuntime rt = TallyRuntime.open(common.config(), List.of());
             DeviceArray array = DeviceArray.of(rt.context(), "demo.input", data);
             OneShotReduction reduction = new OneShotReduction(rt.context(), rt.reducer())) {
            System.out.println("device: " + rt.context().info().name());
            for (ReduceOp op : ReduceOp.values()) {
                OneShotReduction.Result r = reduction.reduce(op, array);
                System.out.printf(Locale.ROOT, "%-4s of %d floats: %s (GPU %.3f ms)%n", op.id(), count, r.value(), r.gpuMillis());
            }
            float sum = reduction.reduce(ReduceOp.SUM, array).value();
            System.out.printf(Locale.ROOT, "CPU double reference sum: %.3f, relative error %.2e%n", reference,
                    Math.abs(sum - reference) / Math.max(1e-30, Math.abs(reference)));
        }
        return 0;
    }
}

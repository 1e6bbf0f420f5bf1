package dev.tally.demo;

import dev.tally.TallyRuntime;
import dev.tally.reduce.DeviceArray;
import dev.tally.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import picocli.CommandLine;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ./tally reduce [--op sum|min|max|mean] [--json] FILE}: reduce little-endian f32 values on the GPU. */
@CommandLine.Command(name = "reduce", description = "Reduce a file of little-endian f32 values on the GPU ('-' reads stdin).")
final class ReduceCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--op", defaultValue = "sum", paramLabel = "OP", description = "sum, min, max or mean (default sum)")
    String op;

    @CommandLine.Option(names = "--json", description = "one JSON line instead of '<op> <value>'")
    boolean json;

    @CommandLine.Parameters(index = "0", paramLabel = "FILE", description = "file of f32 values, or - for standard input")
    String file;

    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() throws IOException {
        ReduceOp reduceOp;
        try {
            reduceOp = ReduceOp.parse(op);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--op: " + e.getMessage());
        }
        Input input = open(file);
        try (InputStream in = input.stream(); TallyRuntime rt = TallyRuntime.open(common.config(), List.of())) {
            OneShotReduction.Result result;
            try (DeviceArray array = readArray(rt, in, input);
                 OneShotReduction reduction = new OneShotReduction(rt.context(), rt.reducer())) {
                result = reduction.reduce(reduceOp, array);
            }
            if (json) {
                System.out.printf(Locale.ROOT, "{\"op\":\"%s\",\"count\":%d,\"value\":%s,\"device\":%s,\"gpuMillis\":%s}%n",
                        reduceOp.id(), result.count(), Json.number(result.value()), Json.string(rt.context().info().name()),
                        Json.number(result.gpuMillis()));
            } else {
                System.out.println(reduceOp.id() + " " + format(result.value()));
            }
        }
        return 0;
    }

    private DeviceArray readArray(TallyRuntime rt, InputStream in, Input input) throws IOException {
        try {
            return DeviceArray.read(rt.context(), "reduce.input", input.count(), in);
        } catch (EOFException e) {
            throw new UserInputException(input.name() + ": " + e.getMessage());
        }
    }

    /** Plain output: shortest float text; NaN and infinities spelled as Java does. */
    static String format(float v) {
        return Float.toString(v);
    }

    /** A validated input: its byte count is known up front (stdin is buffered to learn it). */
    private record Input(String name, long count, InputStreamSupplier supplier) {
        InputStream stream() throws IOException {
            return supplier.get();
        }
    }

    @FunctionalInterface
    private interface InputStreamSupplier {
        InputStream get() throws IOException;
    }

    private static Input open(String file) throws IOException {
        if (file.equals("-")) {
            // A pipe has no size: read it whole (bounded by the JVM heap), then check it.
            byte[] all = System.in.readAllBytes();
            checkSize("standard input", all.length);
            return new Input("standard input", all.length / 4, () -> new java.io.ByteArrayInputStream(all));
        }
        Path path = Path.of(file);
        long size;
        try {
            if (Files.isDirectory(path)) {
                throw new UserInputException(file + ": is a directory, expected a file of f32 values");
            }
            size = Files.size(path);
            if (!Files.isReadable(path)) {
                throw new UserInputException(file + ": not readable");
            }
        } catch (NoSuchFileException e) {
            throw new UserInputException(file + ": no such file");
        }
        checkSize(file, size);
        return new Input(file, size / 4, () -> new BufferedInputStream(Files.newInputStream(path), 1 << 20));
    }

    private static void checkSize(String name, long size) {
        if (size % 4 != 0) {
            throw new UserInputException(name + ": size " + size + " bytes is not a multiple of 4 (f32 values)");
        }
    }
}

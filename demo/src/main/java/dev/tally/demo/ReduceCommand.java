package dev.tally.demo;

import dev.tally.TallyRuntime;
import dev.tally.reduce.DeviceArray;
import dev.tally.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import dev.tally.vk.VulkanContext;
import picocli.CommandLine;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ./tally reduce [--op sum|min|max|mean] [--json] FILE}: reduce little-endian f32 values on the GPU. */
@CommandLine.Command(name = "reduce", mixinStandardHelpOptions = true, description = "Reduce a file of little-endian f32 values on the GPU ('-' reads stdin).")
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
        try (TallyRuntime rt = TallyRuntime.open(common.config(), List.of()); InputStream in = input.stream()) {
            checkFits(rt.context(), input);
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

    private DeviceArray readArray(TallyRuntime rt, InputStream in, Input input) {
        try {
            return DeviceArray.read(rt.context(), "reduce.input", input.count(), in);
        } catch (EOFException e) {
            // The file shrank while it was read.
            throw new UserInputException(input.name() + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UserInputException(input.name() + ": read failed: " + reason(e));
        }
    }

    /**
     * Refuses an input the device cannot hold before allocating anything: one clear line instead of an
     * allocation failure half-way, and no attempt to page a huge file through memory for nothing.
     */
    static void checkFits(VulkanContext ctx, Input input) {
        long bytes = 4 * input.count();
        VulkanContext.MemoryBudget budget = ctx.deviceMemoryBudget();
        if (bytes > budget.available()) {
            throw new UserInputException(String.format(Locale.ROOT,
                    "%s: %d bytes (%.1f GiB) of f32 values do not fit in the device memory budget: %d bytes (%.1f GiB) free on %s, %s",
                    input.name(), bytes, bytes / (double) (1L << 30), budget.available(), budget.available() / (double) (1L << 30),
                    ctx.info().name(), budget.describe()));
        }
    }

    /** Plain output: shortest float text; NaN and infinities spelled as Java does. */
    static String format(float v) {
        return Float.toString(v);
    }

    /** A validated input: its byte count is known up front (stdin is buffered to learn it). */
    record Input(String name, long count, InputStreamSupplier supplier) {
        InputStream stream() {
            try {
                return supplier.get();
            } catch (IOException e) {
                throw new UserInputException(name + ": cannot open (" + reason(e) + ")");
            }
        }
    }

    @FunctionalInterface
    private interface InputStreamSupplier {
        InputStream get() throws IOException;
    }

    private static Input open(String file) {
        if (file.equals("-")) {
            // A pipe has no size: read it whole (bounded by the JVM heap), then check it.
            byte[] all = readStandardInput();
            checkSize("standard input", all.length);
            return new Input("standard input", all.length / 4, () -> new java.io.ByteArrayInputStream(all));
        }
        if (file.isBlank()) {
            // Path.of("") is the working directory: say what is wrong instead of "is a directory".
            throw new UserInputException("FILE: empty file name; give a file of f32 values, or - for standard input");
        }
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException e) {
            throw new UserInputException("'" + file + "': not a usable file name (" + e.getReason() + ")");
        }
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
        } catch (IOException e) {
            throw new UserInputException(file + ": cannot read (" + reason(e) + ")");
        }
        checkSize(file, size);
        return new Input(file, size / 4, () -> new BufferedInputStream(Files.newInputStream(path), 1 << 20));
    }

    /** All of standard input; a pipe that fails half-way is bad input (one line), not a crash. */
    private static byte[] readStandardInput() {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] chunk = new byte[1 << 16];
        try {
            InputStream in = System.in;
            for (int n; (n = in.read(chunk)) >= 0; ) {
                if ((long) all.size() + n > Integer.MAX_VALUE - 16) {
                    throw new UserInputException("standard input: more than 2 GiB; a pipe is buffered in memory, pass a file instead");
                }
                all.write(chunk, 0, n);
            }
        } catch (IOException e) {
            throw new UserInputException("standard input: read failed after " + all.size() + " bytes: " + reason(e));
        } catch (OutOfMemoryError e) {
            throw new UserInputException("standard input: too large to buffer in memory after " + all.size()
                    + " bytes (raise -Xmx or pass a file instead)");
        }
        return all.toByteArray();
    }

    /** An I/O failure in words: its message, else what kind of failure it was (AccessDenied, ...). */
    private static String reason(IOException e) {
        String kind = e.getClass().getSimpleName().replace("Exception", "");
        return e.getMessage() == null || e.getMessage().isBlank() ? kind : kind.equals("IO") ? e.getMessage() : kind + ": " + e.getMessage();
    }

    private static void checkSize(String name, long size) {
        if (size % 4 != 0) {
            throw new UserInputException(name + ": size " + size + " bytes is not a multiple of 4 (f32 values)");
        }
    }
}

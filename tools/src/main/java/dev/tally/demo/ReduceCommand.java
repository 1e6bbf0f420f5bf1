package dev.tally.demo;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.internal.reduce.DeviceArray;
import dev.tally.internal.reduce.OneShotReduction;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.vk.MemoryBudget;
import dev.tally.internal.vk.VulkanContext;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./tally reduce [--op sum|min|max|mean|stats] [--json] FILE}: reduce little-endian f32 values on the GPU.
 * FILE is read as a stream to its end, so pipes, FIFOs and process substitution work like files.
 */
@CommandLine.Command(name = "reduce", mixinStandardHelpOptions = true,
        description = {"Reduce little-endian f32 values on the GPU: raw, or a NumPy .npy array of dtype '<f4' in C order (any shape).",
                "FILE may be any path (a file, a FIFO, <(command)) or - for standard input."})
public final class ReduceCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--op", defaultValue = "sum", paramLabel = "OP",
            description = "sum, min, max, mean, or stats (count, sum, min, max, mean, variance; default sum)")
    String op;

    @CommandLine.Option(names = "--json", description = "one JSON line instead of '<op> <value>'")
    boolean json;

    @CommandLine.Parameters(index = "0", paramLabel = "FILE", description = "raw f32 values or a .npy file: a file, a FIFO or pipe, or - for standard input")
    String file;

    @CommandLine.Mixin
    CommonOptions common;

    @Override
    public Integer call() throws IOException {
        ReduceOp reduceOp;
        boolean stats = op.equals("stats");
        try {
            reduceOp = stats ? ReduceOp.SUM : ReduceOp.parse(op);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--op: unknown op '" + op + "'; expected sum, min, max, mean or stats");
        }
        Source source = Source.of(file);
        try (Tally rt = Tally.open(common.config(), List.of()); InputStream raw = source.open()) {
            VulkanContext ctx = Engine.of(rt).context();
            long available = ctx.deviceMemoryBudget().available();
            if (source.sizeHint() >= 0) {
                // A regular file too large is refused before a byte is read; what is read is still counted.
                checkFits(ctx, source.name(), source.sizeHint(), false);
            }
            NpyHeader.Opened opened = npyOrRaw(source, raw);
            NpyHeader npy = opened.header();
            OneShotReduction.Result result;
            try (HostBytes data = HostBytes.read(source.name(), opened.data(), available, read -> tooLarge(ctx, source.name(), read, true))) {
                if (npy == null) {
                    checkReadWhole(source, data.bytes());   // a .npy file says its own size: its shape
                }
                if (npy != null && data.bytes() != 4 * npy.count()) {
                    throw new UserInputException(source.name() + ": .npy data holds " + data.bytes() + " bytes, its shape "
                            + new NpyHeader.Shape(npy.shape()) + " needs " + 4 * npy.count() + " (" + npy.count() + " float32 values)");
                }
                checkSize(source.name(), data.bytes());
                try (DeviceArray array = upload(rt, source, data);
                     OneShotReduction reduction = new OneShotReduction(ctx, Engine.of(rt).reducer())) {
                    if (stats) {
                        StatsOutput.print(reduction.stats(array), ctx.info().name(), json);
                        return 0;
                    }
                    result = reduction.reduce(reduceOp, array);
                }
            }
            if (json) {
                System.out.printf(Locale.ROOT, "{\"op\":\"%s\",\"count\":%d,\"value\":%s,\"device\":%s,\"gpuMillis\":%s}%n",
                        reduceOp.id(), result.count(), Json.number(result.value()), Json.string(ctx.info().name()),
                        Json.number(result.gpuMillis()));
            } else {
                System.out.println(reduceOp.id() + " " + format(result.value()));
            }
        }
        return 0;
    }

    /**
     * The .npy header when the input starts with NumPy's magic (whatever its name: a pipe has none), else
     * null; a name ending in .npy without the magic is refused rather than read as raw floats.
     */
    private static NpyHeader.Opened npyOrRaw(Source source, InputStream in) {
        try {
            NpyHeader.Opened opened = NpyHeader.open(source.name(), in);
            if (opened.header() == null && source.name().toLowerCase(Locale.ROOT).endsWith(".npy")) {
                throw new UserInputException(source.name() + ": not a NumPy .npy file (it does not start with \\x93NUMPY)");
            }
            return opened;
        } catch (IOException e) {
            throw new UserInputException(source.name() + ": read failed in the .npy header: " + reason(e));
        }
    }

    private static DeviceArray upload(Tally rt, Source source, HostBytes data) {
        try {
            return DeviceArray.read(Engine.of(rt).context(), "reduce.input", data.bytes() / 4, data.stream());
        } catch (IOException e) {
            // The bytes are in memory already: a failure here is not the input's.
            throw new IllegalStateException(source.name() + ": copying " + data.bytes() + " buffered bytes to the device failed", e);
        }
    }

    /**
     * Refuses an input the device cannot hold: one clear line instead of an allocation failure half-way,
     * and no attempt to page a huge file through memory for nothing.
     */
    static void checkFits(VulkanContext ctx, String name, long bytes, boolean soFar) {
        if (bytes > ctx.deviceMemoryBudget().available()) {
            throw tooLarge(ctx, name, bytes, soFar);
        }
    }

    private static UserInputException tooLarge(VulkanContext ctx, String name, long bytes, boolean soFar) {
        MemoryBudget budget = ctx.deviceMemoryBudget();
        return new UserInputException(String.format(Locale.ROOT,
                "%s: %s%d bytes (%.1f GiB) of f32 values do not fit in the device memory budget: %d bytes (%.1f GiB) free on %s, %s",
                name, soFar ? "at least " : "", bytes, bytes / (double) (1L << 30), budget.available(), budget.available() / (double) (1L << 30),
                ctx.info().name(), budget.describe()));
    }

    /** Plain output: shortest float text; NaN and infinities spelled as Java does. */
    static String format(float v) {
        return Float.toString(v);
    }

    /**
     * Where the values come from: standard input, or any path (a file, a named FIFO, a /dev/fd pipe from
     * process substitution). The file size is only a hint for refusing a file too large up front: every
     * input is read to its end and what was read is what counts.
     */
    record Source(String name, long sizeHint, InputStreamSupplier opener) {
        static Source of(String file) {
            if (file.equals("-")) {
                // Standard input belongs to the process: reading it to its end is ours, closing it is not.
                return new Source("standard input", -1, () -> new java.io.FilterInputStream(System.in) {
                    @Override
                    public void close() {
                    }
                });
            }
            if (file.isBlank()) {
                // Path.of("") is the working directory: say what is wrong instead of "is a directory".
                throw new UserInputException("FILE: empty file name; give a file of f32 values, or - for standard input");
            }
            Path path;
            try {
                path = CallerPaths.resolve(Path.of(file));
            } catch (InvalidPathException e) {
                throw new UserInputException("'" + file + "': not a usable file name (" + e.getReason() + ")");
            }
            if (Files.isDirectory(path)) {
                throw new UserInputException(file + ": is a directory, expected a file of f32 values");
            }
            if (!Files.exists(path)) {
                throw new UserInputException(file + ": no such file");
            }
            if (!Files.isReadable(path)) {
                throw new UserInputException(file + ": not readable");
            }
            long hint = -1;
            try {
                // Only a regular file's size means anything, and /proc reports 0 for files full of text.
                if (Files.isRegularFile(path)) {
                    hint = Files.size(path);
                }
            } catch (IOException e) {
                throw new UserInputException(file + ": cannot read (" + reason(e) + ")");
            }
            Path opened = path;
            return new Source(file, hint, () -> Files.newInputStream(opened));
        }

        InputStream open() {
            try {
                return opener.get();
            } catch (NoSuchFileException e) {
                throw new UserInputException(name + ": no such file");
            } catch (IOException e) {
                throw new UserInputException(name + ": cannot open (" + reason(e) + ")");
            }
        }
    }

    @FunctionalInterface
    interface InputStreamSupplier {
        InputStream get() throws IOException;
    }

    /** An I/O failure in words: its message, else what kind of failure it was (AccessDenied, ...). */
    static String reason(IOException e) {
        String kind = e.getClass().getSimpleName().replace("Exception", "");
        return e.getMessage() == null || e.getMessage().isBlank() ? kind : kind.equals("IO") ? e.getMessage() : kind + ": " + e.getMessage();
    }

    /**
     * A regular file that ends before the size it had when opened was cut short while being read (by
     * another program): say so with both sizes, instead of judging the bytes that happened to arrive.
     * Reading more than the size is not an error: /proc files report 0 and hold text.
     */
    static void checkReadWhole(Source source, long read) {
        if (source.sizeHint() >= 0 && read < source.sizeHint()) {
            throw new UserInputException(source.name() + ": truncated while being read: " + source.sizeHint() + " bytes when opened, only "
                    + read + " bytes could be read; read it again once nothing writes to it");
        }
    }

    private static void checkSize(String name, long size) {
        if (size % 4 != 0) {
            throw new UserInputException(name + ": size " + size + " bytes is not a multiple of 4 (f32 values)");
        }
    }
}

package dev.tally.demo;

import dev.tally.config.ConfigException;
import dev.tally.demo.app.PresentationLostException;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.VulkanException;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The demo's entry point (demo, soak, help) and the command line every Tally entry point shares: the tools
 * module's entry point, which {@code ./tally} runs, adds its commands to {@link #commandLine(Object...)}. One
 * exit-code policy: 0 ok; 1 a failed check (validation
 * messages, soak limits), a failed Vulkan call, or a bug in Tally (its stack trace goes to a file the one-line
 * message names); 2 bad input or environment (flags, configuration, files, no
 * device, out of memory); 3 the GPU device was lost (a GPU reset, a driver crash, or
 * {@code debug.injectFault=device-lost@N}): the run stops at once with one line on stderr and writes no
 * output files. SIGINT/SIGTERM stop a demo cleanly (its files are written whole); the JVM then exits with
 * 130/143.
 */
@CommandLine.Command(name = "tally", mixinStandardHelpOptions = true, version = "tally 0.1.0",
        description = "GPU reductions, a frame graph and a never-waiting readback ring for Vulkan renderers.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:success",
                "1:a check failed (validation messages, soak limits), a Vulkan call failed, or an internal error (a bug in Tally; the message names the file with its stack trace)",
                "2:bad input or environment: flags, configuration, files, no device, out of memory",
                "3:the GPU device was lost (GPU reset, driver crash, debug.injectFault=device-lost@N), or the window could not be presented to for 5 s; no output files written"},
        subcommands = {DemoCommand.class, SoakCommand.class})
public final class Main implements Runnable {
    /** Exit status when the GPU device was lost. */
    public static final int DEVICE_LOST = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit status (tests call this directly). */
    public static int run(String... args) {
        return execute(commandLine(), args);
    }

    /** The demo's command line (demo, soak, help) and the exit-status policy; tests may add commands to it. */
    static CommandLine commandLine() {
        return commandLine(new Object[0]);
    }

    /**
     * The demo's commands, then {@code more} (picocli command objects), then help, with the exit-status policy.
     * The converters and handlers are set once every command is in: picocli gives them only to the commands
     * present when they are set.
     */
    public static CommandLine commandLine(Object... more) {
        CommandLine cli = new CommandLine(new Main());
        for (Object command : more) {
            cli.addSubcommand(command);
        }
        cli.addSubcommand(new CommandLine.HelpCommand());
        cli.setErr(new PrintWriter(System.err, true));
        // File names are checked here so a bad one is a parameter error with a plain message.
        cli.registerConverter(Path.class, Main::path);
        cli.setParameterExceptionHandler((ex, a) -> {
            // "tally bench" for a subcommand, "tally" for the top level: the hint names the command that failed.
            String qualified = ex.getCommandLine().getCommandSpec().qualifiedName();
            System.err.println(qualified + ": " + oneLine(ex.getMessage()) + " (see ./" + qualified + " --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println(cmd.getCommandSpec().qualifiedName() + ": " + describe(ex));
            return exitStatus(ex);
        });
        return cli;
    }

    /** Executes {@code args} on {@code cli}; an Error escaping a command (picocli handles only Exceptions) is reported too. */
    public static int execute(CommandLine cli, String... args) {
        try {
            return cli.execute(args);
        } catch (Error e) {
            String where = cli.getParseResult() != null && cli.getParseResult().subcommand() != null
                    ? cli.getParseResult().subcommand().commandSpec().qualifiedName() : cli.getCommandSpec().qualifiedName();
            System.err.println(where + ": " + describe(e));
            return exitStatus(e);
        }
    }

    static int exitStatus(Throwable ex) {
        if (ex instanceof PresentationLostException) {
            return DEVICE_LOST;
        }
        if (ex instanceof VulkanException v) {
            if (v.isDeviceLost()) {
                return DEVICE_LOST;
            }
            return !v.isOutOfMemory() && v.result() != 0 ? 1 : 2;
        }
        return isBug(ex) ? 1 : 2;
    }

    /**
     * Failures Tally can explain: bad input, the environment (files, memory, devices) and the GPU. Anything
     * else (a NullPointerException, an IllegalStateException, a failed assertion) is a bug in Tally.
     */
    static boolean isBug(Throwable ex) {
        return !(ex instanceof ConfigException || ex instanceof ShaderCompileException || ex instanceof UserInputException
                || ex instanceof VulkanException || ex instanceof PresentationLostException || ex instanceof IOException || ex instanceof UncheckedIOException
                || ex instanceof OutOfMemoryError);
    }

    /** A file name from the command line: relative names are the caller's ({@link CallerPaths}). */
    static Path path(String s) {
        if (s.isEmpty()) {
            throw new CommandLine.TypeConversionException("empty file name; give a file name");
        }
        try {
            return CallerPaths.resolve(Path.of(s));
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is not a usable file name (" + e.getReason() + ")");
        }
    }

    /**
     * One line for {@code ex}. For a bug, the stack trace is written to a file under the system's temporary
     * directory and the line names it, so a report can carry it while the terminal stays readable.
     */
    static String describe(Throwable ex) {
        if (ex instanceof ConfigException || ex instanceof ShaderCompileException || ex instanceof UserInputException
                || ex instanceof PresentationLostException) {
            return oneLine(ex.getMessage());
        }
        if (ex instanceof VulkanException) {
            return "vulkan: " + oneLine(ex.getMessage());
        }
        if (ex instanceof IOException || ex instanceof UncheckedIOException) {
            return "I/O error: " + oneLine(String.valueOf(ex.getMessage()));
        }
        if (ex instanceof OutOfMemoryError) {
            return "out of Java memory (" + oneLine(ex.getMessage()) + "); give the JVM more with TALLY_JAVA_OPTS=-Xmx...";
        }
        return "internal error, a bug in Tally: " + ex.getClass().getSimpleName() + ": " + oneLine(String.valueOf(ex.getMessage()))
                + "; " + writeStackTrace(ex);
    }

    private static String writeStackTrace(Throwable ex) {
        return writeStackTrace(ex, traceDirectories());
    }

    /** Where a stack trace may go, in order: the system's temporary directory, the caller's directory, the home directory. */
    static java.util.List<Path> traceDirectories() {
        java.util.List<Path> dirs = new java.util.ArrayList<>();
        for (String d : new String[]{System.getProperty("java.io.tmpdir"), System.getenv(CallerPaths.ENV), System.getProperty("user.home")}) {
            if (d != null && !d.isEmpty()) {
                dirs.add(Path.of(d));
            }
        }
        return dirs;
    }

    /**
     * Writes the trace to the first of {@code dirs} that takes it. A bug's trace is never lost: when no
     * directory takes it, it follows the one-line message on standard error.
     */
    static String writeStackTrace(Throwable ex, java.util.List<Path> dirs) {
        StringWriter trace = new StringWriter();
        try (PrintWriter w = new PrintWriter(trace)) {
            w.println("tally 0.1.0 on Java " + System.getProperty("java.version") + " (" + System.getProperty("os.name") + ")");
            ex.printStackTrace(w);
        }
        java.util.List<String> refused = new java.util.ArrayList<>();
        for (Path dir : dirs) {
            try {
                Path file = Files.createTempFile(dir, "tally-bug-", ".txt");
                Files.writeString(file, trace.toString(), StandardCharsets.UTF_8);
                return "stack trace in " + file + " (please attach it to a bug report)";
            } catch (IOException | RuntimeException e) {
                refused.add(dir + " (" + oneLine(e.getClass().getSimpleName() + ": " + e.getMessage()) + ")");
            }
        }
        System.err.print(trace);
        return "the stack trace could not be written to " + String.join(", ", refused) + "; it follows on standard error";
    }

    static String oneLine(String s) {
        return s == null ? "" : s.strip().replace('\n', ' ').replaceAll("\\s+", " ");
    }
}

package dev.tally.demo;

import dev.tally.config.ConfigException;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.VulkanException;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Entry point of {@code ./tally}: every subcommand, one exit-code policy: 0 ok; 1 a failed check (validation
 * messages, soak limits) or a failed Vulkan call; 2 bad input or environment (flags, configuration, files, no
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
                "1:a check failed (validation messages, soak limits) or a Vulkan call failed",
                "2:bad input or environment: flags, configuration, files, no device, out of memory",
                "3:the GPU device was lost (GPU reset, driver crash, debug.injectFault=device-lost@N); no output files written"},
        subcommands = {InfoCommand.class, ReduceCommand.class, DemoCommand.class, BenchCommand.class, SoakCommand.class,
                CommandLine.HelpCommand.class})
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
        CommandLine cli = new CommandLine(new Main());
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
        return cli.execute(args);
    }

    static int exitStatus(Throwable ex) {
        if (ex instanceof VulkanException v) {
            if (v.isDeviceLost()) {
                return DEVICE_LOST;
            }
            return !v.isOutOfMemory() && v.result() != 0 ? 1 : 2;
        }
        return 2;
    }

    static Path path(String s) {
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is not a usable file name (" + e.getReason() + ")");
        }
    }

    static String describe(Throwable ex) {
        if (ex instanceof ConfigException || ex instanceof ShaderCompileException || ex instanceof UserInputException) {
            return oneLine(ex.getMessage());
        }
        if (ex instanceof VulkanException) {
            return "vulkan: " + oneLine(ex.getMessage());
        }
        return ex.getClass().getSimpleName() + ": " + oneLine(String.valueOf(ex.getMessage()));
    }

    static String oneLine(String s) {
        return s == null ? "" : s.strip().replace('\n', ' ').replaceAll("\\s+", " ");
    }
}

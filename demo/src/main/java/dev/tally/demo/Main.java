package dev.tally.demo;

import dev.tally.config.ConfigException;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.VulkanException;
import picocli.CommandLine;

import java.io.PrintWriter;

/** Entry point of {@code ./tally}: every subcommand, one exit-code policy (0 ok, 1 failed check, 2 bad input or environment). */
@CommandLine.Command(name = "tally", mixinStandardHelpOptions = true, version = "tally 0.1.0",
        description = "GPU reductions, a frame graph and a never-waiting readback ring for Vulkan renderers.",
        subcommands = {InfoCommand.class, ReduceCommand.class, DemoCommand.class, BenchCommand.class, SoakCommand.class})
public final class Main implements Runnable {
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
        cli.setParameterExceptionHandler((ex, a) -> {
            String name = ex.getCommandLine().getCommandName();
            System.err.println("tally " + name + ": " + oneLine(ex.getMessage()) + " (see ./tally " + name + " --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("tally " + cmd.getCommandName() + ": " + describe(ex));
            return ex instanceof VulkanException v && !v.isOutOfMemory() && v.result() != 0 ? 1 : 2;
        });
        return cli.execute(args);
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

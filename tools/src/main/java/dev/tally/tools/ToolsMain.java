package dev.tally.tools;

import dev.tally.demo.BenchCommand;
import dev.tally.demo.GraphCheckCommand;
import dev.tally.demo.InfoCommand;
import dev.tally.demo.Main;
import dev.tally.demo.ReduceCommand;
import picocli.CommandLine;

/**
 * Entry point of {@code ./tally}: the demo's command line with the measurement and developer tools added
 * (info, reduce, bench, graphcheck), under the demo's exit-status policy ({@link Main}).
 */
public final class ToolsMain {
    private ToolsMain() {
    }

    public static void main(String[] args) {
        System.exit(Main.execute(commandLine(), args));
    }

    /** Every command {@code ./tally} runs in Java; tests may add commands to it. */
    public static CommandLine commandLine() {
        return Main.commandLine(new InfoCommand(), new ReduceCommand(), new BenchCommand(), new GraphCheckCommand());
    }
}

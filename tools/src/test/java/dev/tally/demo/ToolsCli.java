package dev.tally.demo;

import dev.tally.tools.ToolsMain;

import java.io.InputStream;

/** {@link Cli} on the command line {@code ./tally} runs ({@link ToolsMain}'s): the demo's commands and the tools'. */
final class ToolsCli {
    private ToolsCli() {
    }

    static Cli.Run run(String... args) {
        return run((InputStream) null, args);
    }

    static Cli.Run run(byte[] stdin, String... args) {
        return run(stdin == null ? null : new java.io.ByteArrayInputStream(stdin), args);
    }

    static Cli.Run run(InputStream stdin, String... args) {
        return Cli.run(stdin, ToolsMain::commandLine, args);
    }
}

package dev.jpto.cli;

import picocli.CommandLine;

/** Entry point of the {@code jpto} command: maps every outcome to the exit codes of DESIGN.md. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code; never calls {@code System.exit}. */
    public static int run(String... args) {
        return JptoCommand.commandLine().execute(args);
    }
}

package dev.jpto.cli;

import dev.jpto.lib.Programs;
import java.io.PrintStream;

/** Entry point of the {@code jpto} command: maps every outcome to the exit codes of DESIGN.md. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code; never calls {@code System.exit}. */
    public static int run(String... args) {
        return run(System.out, System.err, args);
    }

    /** Runs the command line with its log on {@code out} and its errors on {@code err}; returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return JptoCommand.commandLine(out, err, Programs.registry()).execute(args);
    }
}

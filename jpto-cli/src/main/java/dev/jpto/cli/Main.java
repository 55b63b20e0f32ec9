package dev.jpto.cli;

import dev.jpto.lib.registry.Programs;
import java.io.PrintStream;
import java.util.List;

/** Entry point of the {@code jpto} command: maps every outcome to the exit codes of DESIGN.md. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        InterruptHook hook = InterruptHook.install(Thread.currentThread(), System.err);
        int code;
        try {
            code = run(args);
        } finally {
            hook.commandFinished();
        }
        System.exit(code); // during a Ctrl-C shutdown this waits for the hook; the JVM then exits 130
    }

    /** Runs the command line and returns its exit code; never calls {@code System.exit}. */
    public static int run(String... args) {
        return run(System.out, System.err, args);
    }

    /** Runs the command line with its log on {@code out} and its errors on {@code err}; returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        try {
            return JptoCommand.commandLine(out, err, Programs.registry()).execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // commands without their own Outcome (bench, list) end here; picocli lets Errors through
            String command = args.length > 0 && !args[0].startsWith("-") ? "jpto " + args[0] : "jpto";
            err.println(command + ": " + OutOfResources.describe(e));
            if (List.of(args).contains("--verbose")) {
                e.printStackTrace(err);
            }
            return ExitCodes.RUNTIME;
        }
    }

    /** As {@link #run(PrintStream, PrintStream, String...)} with {@code env} in place of the process environment. */
    public static int run(PrintStream out, PrintStream err, java.util.Map<String, String> env, String... args) {
        return JptoCommand.commandLine(out, err, Programs.registry(), env).execute(args);
    }
}

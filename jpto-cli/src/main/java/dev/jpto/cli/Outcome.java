package dev.jpto.cli;

import dev.jpto.compiler.WorkDirException;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.lib.runner.IoErrors;
import dev.jpto.lib.runner.JitConfigException;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * Maps what a command throws to DESIGN.md's exit codes and a one-line message; stack traces only with --verbose.
 * Running out of memory or stack is exit 3 with what ran out; a file the OS refused (read-only, full, not a
 * directory) is exit 2 with the path and the OS's reason.
 */
final class Outcome {
    private Outcome() {
    }

    /**
     * Why a command failed: its exit code, the one line printed for it, and the chip's error code when the chip
     * failed (what {@code --json} documents carry).
     */
    record Failure(int exitCode, String line, Optional<ErrorCode> chipError) {
    }

    static int of(String command, PrintStream err, boolean verbose, Callable<Integer> body) {
        return of(command, err, verbose, body, f -> { });
    }

    /** As {@link #of(String, PrintStream, boolean, Callable)}, also handing a failure to {@code onFailure}. */
    static int of(String command, PrintStream err, boolean verbose, Callable<Integer> body,
                  Consumer<Failure> onFailure) {
        try {
            return body.call();
        } catch (OutOfMemoryError | StackOverflowError | Exception e) {
            Failure f = failure("jpto " + command, verbose, e);
            err.println(f.line());
            if (verbose) {
                e.printStackTrace(err);
            }
            onFailure.accept(f);
            return f.exitCode();
        }
    }

    private static Failure failure(String name, boolean verbose, Throwable e) {
        return switch (e) {
            case OutOfMemoryError vm -> outOf(name, vm);
            case StackOverflowError vm -> outOf(name, vm);
            case ChipRuntimeException c when c.error() == ErrorCode.CANCELLED ->
                    new Failure(ExitCodes.INTERRUPTED, name + ": interrupted: " + c.getMessage(),
                            Optional.of(c.error()));
            case ChipRuntimeException c -> {
                String hint = OutOfResources.in(c).map(vm -> " (" + OutOfResources.describe(vm) + ")").orElse("");
                yield new Failure(ExitCodes.RUNTIME, name + ": runtime error: " + c.getMessage() + hint,
                        Optional.of(c.error()));
            }
            case CancellationException c ->
                    new Failure(ExitCodes.INTERRUPTED, name + ": interrupted: " + c.getMessage(), Optional.empty());
            // an invalid program or kernel is bad input, found before it runs
            case UsageException u -> usage(name, u);
            case JitConfigException u -> usage(name, u);
            case WorkDirException u -> usage(name, u);
            case IllegalArgumentException u -> usage(name, u);
            case VerificationException u -> usage(name, u);
            default -> other(name, verbose, e);
        };
    }

    private static Failure outOf(String name, VirtualMachineError vm) {
        return new Failure(ExitCodes.RUNTIME, name + ": " + OutOfResources.describe(vm), Optional.empty());
    }

    private static Failure usage(String name, Throwable e) {
        return new Failure(ExitCodes.USAGE, name + ": " + e.getMessage(), Optional.empty());
    }

    private static Failure other(String name, boolean verbose, Throwable e) {
        Optional<VirtualMachineError> vm = OutOfResources.in(e);
        if (vm.isPresent()) {
            return new Failure(ExitCodes.RUNTIME, name + ": " + OutOfResources.describe(vm.get()), Optional.empty());
        }
        Optional<IOException> io = ioCause(e);
        if (io.isPresent()) {
            return new Failure(ExitCodes.USAGE, name + ": I/O error: " + ioLine(e, io.get()), Optional.empty());
        }
        return new Failure(ExitCodes.RUNTIME, name + ": internal error: " + e
                + (verbose ? "" : " (run with --verbose for the stack trace)"), Optional.empty());
    }

    /** The IOException behind {@code e} (an UncheckedIOException's, or e itself): a path the OS refused. */
    private static Optional<IOException> ioCause(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IOException io) {
                return Optional.of(io);
            }
        }
        return Optional.empty();
    }

    /** The wrapper's own words (which say what was being done) and the path with the OS's reason. */
    private static String ioLine(Throwable e, IOException io) {
        String what = IoErrors.describe(io);
        String context = e == io || e.getMessage() == null || e.getMessage().equals(io.toString()) ? null
                : e.getMessage();
        return context == null ? what : context.contains(what) ? context : context + " (" + what + ")";
    }
}

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

/**
 * Maps what a command throws to DESIGN.md's exit codes and a one-line message; stack traces only with --verbose.
 * Running out of memory or stack is exit 3 with what ran out; a file the OS refused (read-only, full, not a
 * directory) is exit 2 with the path and the OS's reason.
 */
final class Outcome {
    private Outcome() {
    }

    static int of(String command, PrintStream err, boolean verbose, Callable<Integer> body) {
        String name = "jpto " + command;
        try {
            return body.call();
        } catch (OutOfMemoryError | StackOverflowError e) {
            return fail(err, verbose, e, name + ": " + OutOfResources.describe(e), ExitCodes.RUNTIME);
        } catch (ChipRuntimeException e) {
            if (e.error() == ErrorCode.CANCELLED) {
                return fail(err, verbose, e, name + ": interrupted: " + e.getMessage(), ExitCodes.INTERRUPTED);
            }
            String hint = OutOfResources.in(e).map(vm -> " (" + OutOfResources.describe(vm) + ")").orElse("");
            return fail(err, verbose, e, name + ": runtime error: " + e.getMessage() + hint, ExitCodes.RUNTIME);
        } catch (CancellationException e) {
            return fail(err, verbose, e, name + ": interrupted: " + e.getMessage(), ExitCodes.INTERRUPTED);
        } catch (UsageException | JitConfigException | WorkDirException | IllegalArgumentException
                 | VerificationException e) { // an invalid program or kernel is bad input, found before it runs
            return fail(err, verbose, e, name + ": " + e.getMessage(), ExitCodes.USAGE);
        } catch (Exception e) {
            Optional<VirtualMachineError> vm = OutOfResources.in(e);
            if (vm.isPresent()) {
                return fail(err, verbose, e, name + ": " + OutOfResources.describe(vm.get()), ExitCodes.RUNTIME);
            }
            Optional<IOException> io = ioCause(e);
            if (io.isPresent()) {
                return fail(err, verbose, e, name + ": I/O error: " + ioLine(e, io.get()), ExitCodes.USAGE);
            }
            return fail(err, verbose, e, name + ": internal error: " + e
                    + (verbose ? "" : " (run with --verbose for the stack trace)"), ExitCodes.RUNTIME);
        }
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
    private static String ioLine(Exception e, IOException io) {
        String what = IoErrors.describe(io);
        String context = e == io || e.getMessage() == null || e.getMessage().equals(io.toString()) ? null
                : e.getMessage();
        return context == null ? what : context.contains(what) ? context : context + " (" + what + ")";
    }

    private static int fail(PrintStream err, boolean verbose, Throwable e, String line, int code) {
        err.println(line);
        if (verbose) {
            e.printStackTrace(err);
        }
        return code;
    }
}

package dev.jpto.cli;

import dev.jpto.compiler.WorkDirException;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.lib.runner.JitConfigException;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

/** Maps what a command throws to DESIGN.md's exit codes and a one-line message; stack traces only with --verbose. */
final class Outcome {
    private Outcome() {
    }

    static int of(String command, PrintStream err, boolean verbose, Callable<Integer> body) {
        try {
            return body.call();
        } catch (ChipRuntimeException e) {
            if (e.error() == ErrorCode.CANCELLED) {
                return fail(err, verbose, e, "jpto " + command + ": interrupted: " + e.getMessage(),
                        ExitCodes.INTERRUPTED);
            }
            return fail(err, verbose, e, "jpto " + command + ": runtime error: " + e.getMessage(), ExitCodes.RUNTIME);
        } catch (CancellationException e) {
            return fail(err, verbose, e, "jpto " + command + ": interrupted: " + e.getMessage(), ExitCodes.INTERRUPTED);
        } catch (UsageException | JitConfigException | WorkDirException | IllegalArgumentException
                 | VerificationException e) { // an invalid program or kernel is bad input, found before it runs
            return fail(err, verbose, e, "jpto " + command + ": " + e.getMessage(), ExitCodes.USAGE);
        } catch (Exception e) {
            return fail(err, verbose, e, "jpto " + command + ": internal error: " + e
                    + (verbose ? "" : " (run with --verbose for the stack trace)"), ExitCodes.RUNTIME);
        }
    }

    private static int fail(PrintStream err, boolean verbose, Exception e, String line, int code) {
        err.println(line);
        if (verbose) {
            e.printStackTrace(err);
        }
        return code;
    }
}

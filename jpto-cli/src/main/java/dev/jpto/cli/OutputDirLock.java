package dev.jpto.cli;

import dev.jpto.runtime.io.DirInUseException;
import dev.jpto.runtime.io.DirLock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs a command while it holds the {@link DirLock} of the directory it writes, so that a second command on the
 * same directory waits for it a few seconds and then refuses (exit 2) naming the first, instead of mixing files.
 */
final class OutputDirLock {
    /** Long enough for a compile or a small run to finish; a long run makes the other command refuse. */
    static final Duration WAIT = Duration.ofSeconds(5);

    private OutputDirLock() {
    }

    /**
     * Calls {@code body} holding the lock of {@code dir}, given by {@code flag}.
     *
     * @throws UsageException when another command still holds it after {@link #WAIT}, or it cannot be taken
     */
    static <T> T holding(Path dir, String flag, CommandSpec spec, Callable<T> body) throws Exception {
        DirLock lock;
        try {
            lock = DirLock.acquire(dir, commandLine(spec), WAIT);
        } catch (DirInUseException e) {
            throw new UsageException(flag + " " + e.getMessage());
        } catch (IOException e) {
            throw new UsageException(flag + " " + dir + ": cannot create or lock the directory: " + e.getMessage()
                    + " (it must be a directory you can write)");
        }
        try (lock) {
            return body.call();
        }
    }

    /** What the lock file says holds it: {@code jpto run basic.matmul --output-dir …}. */
    private static String commandLine(CommandSpec spec) {
        return "jpto " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }
}

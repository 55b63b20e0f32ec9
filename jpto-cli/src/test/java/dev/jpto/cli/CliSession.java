package dev.jpto.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The jpto command run in-process, keeping the last command's stdout and stderr: what CLI tests share. */
final class CliSession {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    /** Runs {@code jpto args…}; returns its exit code. */
    int run(String... args) {
        outBuf.reset();
        errBuf.reset();
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    /** Runs {@code jpto args…} with {@code env} as its environment (e.g. a private JPTO_CACHE_DIR). */
    int run(Map<String, String> env, String... args) {
        outBuf.reset();
        errBuf.reset();
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), env, args);
    }

    String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }
}

package dev.jpto.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The jpto command run in-process, keeping the last command's stdout and stderr: what CLI tests share. */
final class CliSession {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
    /** The environment commands see; null: the process's own. */
    private final Map<String, String> env;

    /** A session in the process's environment. */
    CliSession() {
        this(null);
    }

    /** A session whose commands see {@code env} as their environment (e.g. a private JPTO_CACHE_DIR). */
    CliSession(Map<String, String> env) {
        this.env = env;
    }

    /** Runs {@code jpto args…}; returns its exit code. */
    int run(String... args) {
        outBuf.reset();
        errBuf.reset();
        PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);
        return env == null ? Main.run(out, err, args) : Main.run(out, err, env, args);
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

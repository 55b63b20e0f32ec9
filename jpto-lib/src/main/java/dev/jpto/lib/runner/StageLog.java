package dev.jpto.lib.runner;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;

/** The runner's log: {@code [RUN] <stage> (<seconds>s) <detail>} lines, and the time of every stage. */
final class StageLog {
    private final PrintStream out;
    private final Progress progress;
    private final long start = System.nanoTime();
    private final Map<String, Long> nanos = new LinkedHashMap<>();

    StageLog(PrintStream out, Progress progress) {
        this.out = out;
        this.progress = progress;
    }

    /**
     * Stage {@code name} starts now; returns its start time for {@link #done}. A run whose thread was interrupted
     * (Ctrl-C) starts no further stage: it logs {@code [RUN] CANCELLED} and throws {@link CancellationException}.
     */
    long begin(String name) {
        if (Thread.currentThread().isInterrupted()) {
            line("[RUN] CANCELLED (" + seconds(elapsed()) + ") before stage '" + name + "'");
            throw new CancellationException("interrupted before stage '" + name + "'; nothing more ran");
        }
        progress.stage(name);
        return System.nanoTime();
    }

    /** Records stage {@code name}, begun at {@code begin} (System.nanoTime), and prints its line. */
    void done(String name, long begin, String detail) {
        long t = System.nanoTime() - begin;
        nanos.put(name, t);
        line("[RUN] " + name + " (" + seconds(t) + ")" + (detail.isEmpty() ? "" : " " + detail));
    }

    void line(String text) {
        progress.end();
        out.println(text);
    }

    long elapsed() {
        return System.nanoTime() - start;
    }

    Map<String, Long> stages() {
        return nanos;
    }

    static String seconds(long nanos) {
        double s = nanos / 1e9;
        return String.format(Locale.ROOT, s < 10 ? "%.3fs" : "%.2fs", s);
    }
}

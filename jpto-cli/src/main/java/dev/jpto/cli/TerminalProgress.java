package dev.jpto.cli;

import dev.jpto.lib.runner.Progress;
import dev.jpto.runtime.Sizes;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * On a terminal: the running stage ({@code [RUN] compute golden … 12s}) until its own line replaces it, and a bar
 * for counted steps with an ETA, redrawn in place with {@code \r} at most every 100 ms and on the last step. With a
 * ticker, the line is also redrawn every half second so that the elapsed time moves during a long stage, and so
 * that a stage counting its work ({@link #counting}: input bytes filled, chip tasks completed of those submitted so
 * far) shows its counts. The bar is coloured only when asked ({@link #forTerminal}: a terminal without NO_COLOR), and
 * drawn on stderr so that stdout holds only the stage lines.
 */
final class TerminalProgress implements Progress {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;
    private static final long TICK_MILLIS = 500;
    private static final String CYAN = "\u001b[36m";
    private static final String RESET = "\u001b[0m";

    private final PrintStream out;
    private final boolean colour;
    private final boolean tick;
    private final LongSupplier clock;
    private String label = "";
    private int total = -1; // -1: a stage without counted steps
    private int done;
    private LongSupplier liveDone; // non-null: a stage counting its work (counting())
    private LongSupplier liveTotal;
    private String unit = "";
    private long started;
    private long lastDraw;
    private int drawnWidth;
    private ScheduledExecutorService ticker;

    TerminalProgress(PrintStream out) {
        this(out, false, false, System::nanoTime);
    }

    TerminalProgress(PrintStream out, boolean colour, boolean tick, LongSupplier clock) {
        this.out = out;
        this.colour = colour;
        this.tick = tick;
        this.clock = clock;
    }

    /**
     * The progress for a command printing to {@code out}: this bar, drawn on {@code err}, when {@code out} is the
     * terminal (a console that is a terminal, and not CI), coloured unless NO_COLOR is set; plain lines on
     * {@code out} otherwise (a pipe, a log file, a test).
     */
    static Progress forTerminal(PrintStream out, PrintStream err, Map<String, String> env) {
        if (!isTerminal(out, env)) {
            return Progress.lines(out);
        }
        return new TerminalProgress(err, colour(env), true, System::nanoTime);
    }

    /** Whether {@code out} is this process's stdout on a terminal, and not in CI: where bars may be drawn. */
    static boolean isTerminal(PrintStream out, Map<String, String> env) {
        java.io.Console console = System.console();
        return out == System.out && console != null && console.isTerminal() && !env.containsKey("CI");
    }

    /** Colour unless NO_COLOR is set or the terminal is dumb. */
    static boolean colour(Map<String, String> env) {
        return env.getOrDefault("NO_COLOR", "").isEmpty() && !"dumb".equals(env.get("TERM"));
    }

    @Override
    public synchronized void stage(String name) {
        label = name;
        total = -1;
        liveDone = null;
        started = clock.getAsLong();
        draw();
        startTicker();
    }

    @Override
    public synchronized void begin(String l, int t) {
        label = l;
        total = t;
        liveDone = null;
        done = 0;
        started = clock.getAsLong();
        draw();
        startTicker();
    }

    @Override
    public synchronized void counting(String l, LongSupplier d, LongSupplier t, String u) {
        label = l;
        total = -1;
        liveDone = d;
        liveTotal = t;
        unit = u;
        draw();
        startTicker();
    }

    @Override
    public synchronized void advance(int d) {
        done = d;
        if (d == total || clock.getAsLong() - lastDraw >= REDRAW_NANOS) {
            draw();
        }
    }

    @Override
    public void end() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = ticker;
            ticker = null;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(1, TimeUnit.SECONDS); // bounded: a redraw in flight finishes in microseconds
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (drawnWidth > 0) {
                // clear the line so the next [RUN] line starts on a clean line
                out.print("\r" + " ".repeat(drawnWidth) + "\r");
                out.flush();
                drawnWidth = 0;
            }
        }
    }

    private void startTicker() {
        if (tick && ticker == null) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "jpto-progress");
                th.setDaemon(true);
                return th;
            });
            ticker.scheduleAtFixedRate(this::redraw, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void redraw() {
        if (drawnWidth > 0) {
            draw();
        }
    }

    private void draw() {
        long now = clock.getAsLong();
        double elapsed = (now - started) / 1e9;
        String line;
        boolean counted = total >= 0 || liveDone != null;
        if (liveDone != null) {
            line = live(elapsed);
        } else if (total < 0) {
            line = "[RUN] " + label + " …" + (elapsed >= 1 ? " " + time(elapsed) : "");
        } else {
            int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
            String bar = "#".repeat(filled);
            String eta = done > 0 && done < total ? " ETA " + time(elapsed / done * (total - done)) : "";
            line = String.format(Locale.ROOT, "[RUN] %s [%s%s] %d/%d%s", label, colour ? CYAN + bar + RESET : bar,
                    ".".repeat(WIDTH - filled), done, total, eta);
        }
        int visible = line.length() - (colour && counted ? CYAN.length() + RESET.length() : 0);
        // pad over a longer line drawn before, so that no characters of it stay behind
        out.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - visible)));
        out.flush();
        drawnWidth = Math.max(drawnWidth, visible);
        lastDraw = now;
    }

    /**
     * A counting stage: {@code [RUN] generate inputs [###…] 12.0MiB/48.0MiB ETA 3s}, or for tasks, whose total
     * grows while the orchestration submits, {@code [RUN] runtime [###…] 1200/3000 tasks (submitted so far) 4s}.
     */
    private String live(double elapsed) {
        long d = liveDone.getAsLong();
        long t = Math.max(d, liveTotal.getAsLong());
        int filled = t == 0 ? 0 : (int) (WIDTH * (double) d / t);
        String bar = "#".repeat(filled);
        boolean bytes = unit.equals(Progress.BYTES);
        String counts = bytes ? Sizes.approx(d) + "/" + Sizes.approx(t) : d + "/" + t + " " + unit
                + " (submitted so far)";
        String tail = bytes ? (d > 0 && d < t ? " ETA " + time(elapsed / d * (t - d)) : "")
                : (elapsed >= 1 ? " " + time(elapsed) : "");
        return String.format(Locale.ROOT, "[RUN] %s [%s%s] %s%s", label, colour ? CYAN + bar + RESET : bar,
                ".".repeat(WIDTH - filled), counts, tail);
    }

    /** {@code 45s}, {@code 3m05s}. */
    static String time(double seconds) {
        long s = Math.round(seconds);
        return s < 60 ? s + "s" : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}

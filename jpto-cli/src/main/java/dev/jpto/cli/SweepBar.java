package dev.jpto.cli;

import dev.jpto.sweep.SweepProgress;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * A sweep's progress on a terminal: one bar on stderr, {@code [SWEEP] [######......] 12/36 done, 1 failed,
 * 24 remaining, ETA 3m05s}, redrawn in place per result; a case not as expected is printed as a line of its own on
 * stdout above the bar. Elsewhere (a pipe, a log, CI) the sweep prints one plain line per result.
 */
final class SweepBar implements SweepProgress {
    private static final int WIDTH = 30;
    private static final String RED = "\u001b[31m";
    private static final String RESET = "\u001b[0m";

    private final PrintStream out;
    private final PrintStream bar;
    private final boolean colour;
    private int drawnWidth;

    SweepBar(PrintStream out, PrintStream bar, boolean colour) {
        this.out = out;
        this.bar = bar;
        this.colour = colour;
    }

    /** The bar when stdout is a terminal (drawn on {@code err}), plain lines on {@code out} otherwise. */
    static SweepProgress forTerminal(PrintStream out, PrintStream err, Map<String, String> env) {
        return TerminalProgress.isTerminal(out, env) ? new SweepBar(out, err, TerminalProgress.colour(env))
                : SweepProgress.lines(out);
    }

    @Override
    public void result(Tally t, String line, boolean expected) {
        if (!expected) {
            clear();
            out.println("[SWEEP] " + (colour ? RED + "UNEXPECTED" + RESET : "UNEXPECTED") + " " + line);
            out.flush();
        }
        String text = text(t);
        bar.print("\r" + text + " ".repeat(Math.max(0, drawnWidth - text.length())));
        bar.flush();
        drawnWidth = Math.max(drawnWidth, text.length());
    }

    @Override
    public void end() {
        clear();
    }

    private void clear() {
        if (drawnWidth > 0) {
            bar.print("\r" + " ".repeat(drawnWidth) + "\r");
            bar.flush();
            drawnWidth = 0;
        }
    }

    /** The bar's text for {@code t}. */
    static String text(Tally t) {
        int filled = t.total() == 0 ? WIDTH : (int) ((long) WIDTH * t.done() / t.total());
        return String.format(Locale.ROOT, "[SWEEP] [%s%s] %d/%d done, %d failed, %d remaining%s", "#".repeat(filled),
                ".".repeat(WIDTH - filled), t.done(), t.total(), t.failed(), t.remaining(),
                t.remaining() > 0 ? ", ETA " + TerminalProgress.time(t.etaSeconds()) : "");
    }
}
